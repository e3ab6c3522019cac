import type { SegmentTagKinds } from "../../../shared/segments/tree.js";
import type { SegmentCountResponse, SegmentExplainResponse } from "../../../shared/api/segments.js";
import type { CreateSegmentRequest, SavedSegment, SavedSegmentDetail, SavedSegmentDetailResponse, SavedSegmentResponse, SavedSegmentsResponse, UpdateSegmentRequest } from "../../../shared/api/saved-segments.js";
import { API_ROUTES, segmentPath } from "../../../shared/api/routes.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

// The shapes of the answers, under the names the Painel uses.
export type { SegmentCountResponse as SegmentCount, SegmentExplainResponse as SegmentExplanation, ExplainNode } from "../../../shared/api/segments.js";

export type { SavedSegment, SavedSegmentDetail as SegmentDetail } from "../../../shared/api/saved-segments.js";

export type ExplainTarget = { userId: string } | { subscriptionId: string };
export type ExplainSource = { expression: string; tagKinds: SegmentTagKinds } | { segment: string };

/** Segments: the live count, explain, and saved segments. */
export interface SegmentsApi {
  count(expression: string, tagKinds: SegmentTagKinds, signal?: AbortSignal): Promise<SegmentCountResponse>;
  explain(source: ExplainSource, target: ExplainTarget): Promise<SegmentExplainResponse>;
  listSegments(): Promise<SavedSegment[]>;
  getSegment(id: string): Promise<SavedSegmentDetail>;
  createSegment(request: CreateSegmentRequest): Promise<SavedSegment>;
  updateSegment(id: string, request: UpdateSegmentRequest): Promise<SavedSegment>;
  deleteSegment(id: string): Promise<void>;
}

const SEGMENTS = API_ROUTES.segments;

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createSegmentsApi(options: DashboardRequestOptions = {}): SegmentsApi {
  // The live count is cancelled as the text changes: the abort signal goes through a wrapped fetch.
  const baseFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const { json, request } = createDashboardRequest(options);
  return {
    count(expression, tagKinds, signal) {
      if (signal === undefined) return json("POST", API_ROUTES.segmentsCount, { expression, tagKinds });
      const signalled = createDashboardRequest({ ...options, fetch: (input, init) => baseFetch(input, { ...init, signal }) });
      return signalled.json("POST", API_ROUTES.segmentsCount, { expression, tagKinds });
    },
    explain(source, target) {
      const body = { ...source, ...target };
      return json("POST", API_ROUTES.segmentsExplain, body);
    },
    async listSegments() {
      return (await json<SavedSegmentsResponse>("GET", SEGMENTS)).segments;
    },
    async getSegment(id) {
      return (await json<SavedSegmentDetailResponse>("GET", segmentPath(id))).segment;
    },
    async createSegment(body) {
      return (await json<SavedSegmentResponse>("POST", SEGMENTS, body)).segment;
    },
    async updateSegment(id, body) {
      return (await json<SavedSegmentResponse>("PATCH", segmentPath(id), body)).segment;
    },
    async deleteSegment(id) {
      await request("DELETE", segmentPath(id));
    },
  };
}
