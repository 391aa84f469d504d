/** The server-sent events of a fetch body as they arrive: each block's event name and data line. */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event?: string; data?: string }> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      yield { event: /^event: (.*)$/m.exec(block)?.[1], data: /^data: (.*)$/m.exec(block)?.[1] };
    }
  }
}
