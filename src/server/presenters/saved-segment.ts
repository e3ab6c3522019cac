import type { SavedSegment, SavedSegmentDetail } from "../../shared/api/saved-segments.js";
import { formatSegment } from "../../shared/segments/format.js";
import type { SavedSegment as StoredSegment, SegmentDaySize, SegmentNotification } from "../../store/saved-segments-repository.js";

const iso = (ms: number) => new Date(ms).toISOString();

export function presentSavedSegment(segment: StoredSegment): SavedSegment {
  return {
    id: String(segment.id),
    name: segment.name,
    description: segment.description,
    expression: formatSegment(segment.tree),
    tree: segment.tree as unknown as Record<string, unknown>,
    tagKinds: segment.tagKinds,
    size: segment.size === null ? null : { subscriptions: segment.size.subscriptions, people: segment.size.people, measuredAt: iso(segment.size.measuredAt) },
    createdAt: iso(segment.createdAt),
    updatedAt: iso(segment.updatedAt),
  };
}

export function presentSavedSegmentDetail(segment: StoredSegment, history: readonly SegmentDaySize[], sends: readonly SegmentNotification[]): SavedSegmentDetail {
  return {
    ...presentSavedSegment(segment),
    history: history.map((day) => ({ ...day })),
    sends: sends.map((send) => ({ id: String(send.id), title: send.title, status: send.status, createdAt: iso(send.createdAt), queued: send.queued })),
  };
}
