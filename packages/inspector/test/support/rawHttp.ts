// Requests with the headers a test chooses (fetch will not send another Host): the status, the
// headers and the body of one plain HTTP/1.1 exchange.
import http from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** Sends `method path` to `base`'s port with `headers` (a `host` among them replaces the real one). */
export function rawRequest(base: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<RawResponse> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path, method, headers, setHost: false }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    request.on('error', reject);
    request.end();
  });
}
