const CLOSE = "</body></html>";

/**
 * React 18 writes `</body></html>` with the shell, and Remix 2's single-fetch data scripts stream in
 * after it: a document with content after its end (invalid HTML; browsers move it into the body).
 * This moves the closing tags to the end of the stream, where they belong (decision 162). Holds back
 * at most the length of the closing tags, so streaming is unchanged.
 */
export function closeDocumentLast(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let held = "";
  let moved = false;
  // Pulled by the reader (no pipe): a reader that goes away cancels React's render, nothing is left
  // rejected (a client that closed the page, a body nobody reads).
  return new ReadableStream<Uint8Array>({
    // Reads until there is something to pass on: a pull that enqueues nothing is not called again.
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          controller.enqueue(encoder.encode(held + decoder.decode() + (moved ? CLOSE : "")));
          controller.close();
          return;
        }
        let text = held + decoder.decode(value, { stream: true });
        held = "";
        if (!moved) {
          const at = text.indexOf(CLOSE);
          if (at >= 0) {
            moved = true;
            text = text.slice(0, at) + text.slice(at + CLOSE.length);
          } else {
            // The closing tags may be split across chunks: keep back what could be their start.
            const keep = Math.min(text.length, CLOSE.length - 1);
            held = text.slice(text.length - keep);
            text = text.slice(0, text.length - keep);
          }
        }
        if (text) {
          controller.enqueue(encoder.encode(text));
          return;
        }
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
