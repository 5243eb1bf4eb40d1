// The budgets of `npm run bench`: a run over one of them exits non-zero (bench/run.ts). Each
// part reads the figures it checks from here; docs/performance.md says what each one measures.

/** Budgets: a run over one of them exits non-zero. */
export const budgets = {
  loaderGzip: 4 * 1024,
  /**
   * A page with only one element, for each of the six, a reader who never touches it: the loader
   * and the element's React-free first view (issue 14: the tip button; issue 33: all six). Nothing
   * else loads by itself: the React widgets and the runtime wait for the reader's intent.
   */
  elementFirstLoadGzip: 15 * 1024,
  /** <fanstage-chat>'s first load against stream-chat-react's minimal chat (issue 14). */
  chatFirstLoadRatio: 0.15,
  webFirstLoadGzip: 120 * 1024,
  throughputRatio: 0.25,
  /** GET /papi/2/timeline on PostgreSQL with 100 000 posts, against bare Fastify (issue 4). */
  timelineRatio: 0.3,
  /** Page 21 of the public timeline and post search, for a visitor, against bare Fastify (issue 14). */
  deepReadRatio: 0.05,
  /** A signed-in fan's first page of their own timeline (no shared cache), against bare Fastify (issue 14). */
  fanTimelineRatio: 0.2,
  /** Websocket fan-out to 10 000 clients, against a bare `ws` broadcast server (issue 29). */
  fanOutRatio: 0.7,
  /** What one idle websocket costs the server, against one of the bare `ws` server's (issue 29). */
  idleConnectionRatio: 1,
  /** The time the 10 000 take to open, against the bare server's (issue 29). */
  socketOpenRatio: 1.5,
  /** /papi/health/live's p99 while 2 000 sockets open at once (issue 29). */
  healthDuringSocketBurstP99Ms: 100,
  /** Accept → both pages showing the other's video, our call against a bare simple-peer pair (issue 12). */
  callAcceptRatio: 1.5,
  /** What a page with only <fanstage-call> downloads before its button shows: the loader and the call element's chunks. */
  callElementGzip: 165 * 1024,
  /** Lighthouse mobile performance score of `/` and `/lucy.rivers`, and their layout shift (issue 14). */
  lighthouseScore: 90,
  lighthouseCls: 0.05,
  /** The partner demo page with its widgets against the same page without them (issues 14, 33). */
  partnerScoreRatio: 0.99,
  partnerClsAdded: 0.01,
  partnerTbtAddedMs: 50,
  /** /papi/health/live's p99 while 200 sign-ins hash their passwords at once (issue 30). */
  healthDuringSignInsP99Ms: 100,
};
