/**
 * A loopback OTLP/HTTP traces receiver for tests: listens on 127.0.0.1:0, takes the JSON
 * encoding govflow's exporter sends to /v1/traces and decodes it into flat spans.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedSpan {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  attributes: Record<string, string | number | boolean>;
  statusCode: number;
  serviceName: string | null;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
  doubleValue?: number;
  boolValue?: boolean;
}

interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}

interface OtlpExport {
  resourceSpans: Array<{
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans: Array<{
      spans: Array<{
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        attributes?: OtlpAttribute[];
        status?: { code?: number };
      }>;
    }>;
  }>;
}

function valueOf(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return JSON.stringify(value);
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly requests: Array<{
    path: string;
    contentType: string;
    headers: Record<string, string | string[] | undefined>;
  }> = [];
  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    // Assigned once the server exists; the request handler (made first) reads it later.
    // eslint-disable-next-line prefer-const
    let receiver: OtlpReceiver | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        receiver!.requests.push({
          path: request.url ?? '',
          contentType: request.headers['content-type'] ?? '',
          headers: request.headers,
        });
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        receiver!.take(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    receiver = new OtlpReceiver(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private take(body: OtlpExport): void {
    for (const resourceSpans of body.resourceSpans) {
      const serviceName = attributesOf(resourceSpans.resource?.attributes)['service.name'];
      for (const scope of resourceSpans.scopeSpans) {
        for (const span of scope.spans) {
          this.spans.push({
            name: span.name,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ? span.parentSpanId : null,
            attributes: attributesOf(span.attributes),
            statusCode: span.status?.code ?? 0,
            serviceName: typeof serviceName === 'string' ? serviceName : null,
          });
        }
      }
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
