// What every server-sent event stream of the API shares (the status screen, scan sessions).

/** A comment line this often keeps proxies from closing an idle stream. */
export const SSE_KEEPALIVE_MS = 15_000;
/** A client that stops reading is cut off past this much unsent data, not buffered for without bound. */
export const SSE_MAX_BUFFERED = 1 << 20;

/** One event: its id (what Last-Event-ID sends back), name, and data as one line of JSON. */
export const sseFrame = (id: number, event: string, data: unknown) => `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
