/**
 * Whether and where govflow exports traces, from `telemetry:` and the standard OpenTelemetry
 * variables, as one frozen object. No SDK is loaded here: a daemon without telemetry never pays for it.
 */
import { ConfigError } from '../errors.js';
import type { GovflowConfig } from '../config/config-loader.js';

/** Tracing is on: where spans go and what they may carry. */
export interface TelemetrySettings {
  /** The full OTLP/HTTP traces URL (…/v1/traces). */
  tracesUrl: string;
  /** Where the URL came from, for the start-up log line. */
  source: 'telemetry.otlp_endpoint' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' | 'OTEL_EXPORTER_OTLP_ENDPOINT';
  captureContent: boolean;
  serviceName: string;
  /** Extra request headers (OTEL_EXPORTER_OTLP_HEADERS / OTEL_EXPORTER_OTLP_TRACES_HEADERS). */
  headers: Record<string, string>;
}

const TRACES_PATH = 'v1/traces';

/** A collector base URL gets `/v1/traces` appended; a URL already ending in it is kept. */
export function tracesUrlOf(endpoint: string): string {
  const trimmed = endpoint.trim();
  if (/\/v1\/traces\/?$/.test(trimmed)) return trimmed;
  return `${trimmed.replace(/\/+$/, '')}/${TRACES_PATH}`;
}

/** `key1=value1,key2=value2` (values URL-encoded), the OTLP exporter header format. */
export function parseOtlpHeaders(text: string | undefined, variable: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (!text) return headers;
  for (const pair of text.split(',')) {
    if (pair.trim() === '') continue;
    const equals = pair.indexOf('=');
    if (equals <= 0)
      throw new ConfigError(
        `${variable} holds "${pair.trim()}", which is not key=value; write it as key1=value1,key2=value2`,
      );
    let value = pair.slice(equals + 1).trim();
    try {
      value = decodeURIComponent(value);
    } catch {
      // Not URL-encoded: keep the text as written.
    }
    headers[pair.slice(0, equals).trim()] = value;
  }
  return headers;
}

function checkedUrl(value: string, from: string): string {
  if (!URL.canParse(value.trim()))
    throw new ConfigError(`${from} is "${value}", which is not a URL; write it like http://127.0.0.1:4318`);
  const { protocol } = new URL(value.trim());
  if (protocol !== 'http:' && protocol !== 'https:') {
    throw new ConfigError(`${from} is "${value}"; govflow exports OTLP over HTTP, so use an http:// or https:// URL`);
  }
  return value.trim();
}

/**
 * Null when tracing is off. The config key wins over the environment; only
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is the full URL by the OpenTelemetry rules.
 */
export function resolveTelemetrySettings(
  config: Pick<GovflowConfig, 'telemetry'>,
  env: NodeJS.ProcessEnv,
): TelemetrySettings | null {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return null;
  const headers = {
    ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS'),
    ...parseOtlpHeaders(env.OTEL_EXPORTER_OTLP_TRACES_HEADERS, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS'),
  };
  const sources = [
    ['telemetry.otlp_endpoint', config.telemetry.otlp_endpoint],
    ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', env.OTEL_EXPORTER_OTLP_ENDPOINT],
  ] as const;
  for (const [source, value] of sources) {
    if (!value || value.trim() === '') continue;
    const url = checkedUrl(value, source);
    const tracesUrl = source === 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT' ? url : tracesUrlOf(url);
    return Object.freeze({
      captureContent: config.telemetry.capture_content,
      serviceName: config.telemetry.service_name,
      headers,
      tracesUrl,
      source,
    });
  }
  return null;
}
