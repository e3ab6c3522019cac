import type { SegmentNode, SegmentTagKinds } from "../../../shared/segments/tree.js";
import type { NotificationStatus } from "../../../shared/api/notifications.js";
import { API_PREFIX } from "../../../shared/api/routes.js";
import { createJsonRequest } from "../../../client/http/json-request.js";
import { dashboardApiErrorFrom } from "./dashboard-api.js";

// The shapes of the segments API (issue #24's contract), as the Painel reads them.

/** POST /segments/count: how many match now, and the expression as the server understood it. */
export interface SegmentCount {
  subscriptions: number;
  people: number;
  /** The canonical pt-BR text of the expression. */
  expression: string;
  tree: SegmentNode;
  /** Channel slugs the expression names that no channel has: those conditions hold for nobody. */
  unknownChannels: string[];
}

/** One condition (or combination) of an explained expression, and whether it held. */
export interface ExplainNode {
  text: string;
  held: boolean;
  children?: ExplainNode[];
}

/** POST /segments/explain: per subscription of the person (or the one subscription asked for). */
export interface SegmentExplanation {
  matches: boolean;
  subscriptions: { id: string; matches: boolean; tree: ExplainNode }[];
}

export interface SegmentSize {
  subscriptions: number;
  people: number;
  measuredAt: string;
}

export interface SavedSegment {
  id: string;
  name: string;
  description: string | null;
  /** The canonical text. */
  expression: string;
  tree: SegmentNode;
  tagKinds: SegmentTagKinds;
  /** The last measure (on save and daily), or null before the first. */
  size: SegmentSize | null;
}

export interface SegmentDetail extends SavedSegment {
  /** Daily sizes, oldest first (the last 90 days). */
  history: { day: string; subscriptions: number; people: number }[];
  /** The latest sends to this segment. */
  sends: { id: string; title: string; status: NotificationStatus; createdAt: string; queued: number }[];
}

export interface SegmentRequest {
  name: string;
  description?: string | null;
  expression: string;
  tagKinds: SegmentTagKinds;
}

export type ExplainTarget = { userId: string } | { subscriptionId: string };
export type ExplainSource = { expression: string; tagKinds: SegmentTagKinds } | { segment: string };

/** Segments: the live count, explain, and saved segments. */
export interface SegmentsApi {
  count(expression: string, tagKinds: SegmentTagKinds, signal?: AbortSignal): Promise<SegmentCount>;
  explain(source: ExplainSource, target: ExplainTarget): Promise<SegmentExplanation>;
  listSegments(): Promise<SavedSegment[]>;
  getSegment(id: string): Promise<SegmentDetail>;
  createSegment(request: SegmentRequest): Promise<SavedSegment>;
  updateSegment(id: string, request: Partial<SegmentRequest>): Promise<SavedSegment>;
  deleteSegment(id: string): Promise<void>;
}

const SEGMENTS = `${API_PREFIX}/segments`;
const segmentPath = (id: string) => `${SEGMENTS}/${encodeURIComponent(id)}`;

/** The saved segment's id as the API sends it (a number) and the Painel keeps it (text, like every id). */
const normalise = <T extends { id: string | number }>(segment: T): T & { id: string } => ({ ...segment, id: String(segment.id) });

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createSegmentsApi(options: { baseUrl?: string; fetch?: typeof fetch } = {}): SegmentsApi {
  // The live count is cancelled as the text changes: the abort signal goes through a wrapped fetch.
  const baseFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const { json, request } = createJsonRequest({ ...options, toError: dashboardApiErrorFrom });
  return {
    count(expression, tagKinds, signal) {
      if (signal === undefined) return json("POST", `${SEGMENTS}/count`, { expression, tagKinds });
      const signalled = createJsonRequest({ ...options, fetch: (input, init) => baseFetch(input, { ...init, signal }), toError: dashboardApiErrorFrom });
      return signalled.json("POST", `${SEGMENTS}/count`, { expression, tagKinds });
    },
    explain(source, target) {
      const body = "segment" in source ? { segment: Number(source.segment), ...target } : { ...source, ...target };
      return json("POST", `${SEGMENTS}/explain`, body);
    },
    async listSegments() {
      return (await json<{ segments: SavedSegment[] }>("GET", SEGMENTS)).segments.map(normalise);
    },
    async getSegment(id) {
      const { segment } = await json<{ segment: SegmentDetail }>("GET", segmentPath(id));
      return { ...normalise(segment), sends: segment.sends.map(normalise) };
    },
    async createSegment(body) {
      return normalise((await json<{ segment: SavedSegment }>("POST", SEGMENTS, body)).segment);
    },
    async updateSegment(id, body) {
      return normalise((await json<{ segment: SavedSegment }>("PATCH", segmentPath(id), body)).segment);
    },
    async deleteSegment(id) {
      await request("DELETE", segmentPath(id));
    },
  };
}
