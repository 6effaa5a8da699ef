/**
 * Turns whatever an AI SDK call threw into our `ProviderError`, classified, with Retry-After, and
 * scrubbed of the API key: servers do echo keys back ("Incorrect API key provided: sk-proj-…").
 */
import { APICallError, RetryError } from 'ai';
import { ProviderError } from '../errors.js';
import { isRetryableStatus, parseRetryAfterMs } from '../backoff.js';

/** Longest excerpt of a response body an error carries. */
export const BODY_EXCERPT_MAX_CHARS = 300;

/** The shortest run of key characters treated as a leak (servers show partial keys). */
const MIN_LEAKED_FRAGMENT = 8;

/** Removes `secret` and any 8-character run of it from `text`: providers print a key's head and tail. */
export function scrubSecret(text: string, secret: string | null | undefined): string {
  if (!secret || secret.length < MIN_LEAKED_FRAGMENT) return secret ? text.split(secret).join('[redacted]') : text;
  let result = text.split(secret).join('[redacted]');
  for (let start = 0; start + MIN_LEAKED_FRAGMENT <= secret.length; start += 1) {
    for (let end = secret.length; end - start >= MIN_LEAKED_FRAGMENT; end -= 1) {
      const fragment = secret.slice(start, end);
      if (result.includes(fragment)) {
        result = result.split(fragment).join('[redacted]');
        break;
      }
    }
  }
  return result;
}

/** Everything the translation needs to know about the call that failed. */
export interface FailureContext {
  provider: string;
  model: string;
  apiKey: string | null;
  /** Its abort is a cancellation; the retry wrapper turns those its timeout caused into timeouts. */
  callerSignal: AbortSignal;
}

/** The SDK wraps errors in RetryError (when it retried) and sometimes in `cause` chains. */
function unwrap(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5; depth += 1) {
    if (RetryError.isInstance(current)) {
      current = current.lastError;
      continue;
    }
    if (APICallError.isInstance(current)) return current;
    const cause = current instanceof Error ? current.cause : undefined;
    if (cause !== undefined && (APICallError.isInstance(cause) || RetryError.isInstance(cause))) {
      current = cause;
      continue;
    }
    return current;
  }
  return current;
}

function excerpt(body: string | undefined, apiKey: string | null): string | undefined {
  if (!body) return undefined;
  const compact = scrubSecret(body, apiKey).replace(/\s+/g, ' ').trim();
  return compact.length > BODY_EXCERPT_MAX_CHARS ? `${compact.slice(0, BODY_EXCERPT_MAX_CHARS - 1)}…` : compact;
}

/** What the operator should do about a status; short, for result files and the audit log. */
function adviceFor(status: number, provider: string): string {
  if (status === 401) return `check the API key for ${provider} (provider.api_key_env or GOVFLOW_API_KEY)`;
  if (status === 403) return `the key for ${provider} is not allowed to use this model or endpoint`;
  if (status === 404) return 'check provider.model and provider.base_url (GOVFLOW_MODEL, GOVFLOW_BASE_URL)';
  if (status === 400) return 'the provider rejected the request; see the body excerpt';
  if (isRetryableStatus(status)) return 'retryable; the provider is overloaded, rate-limited or failing';
  // A 200 the SDK could not read: something other than the model API answered (a proxy's page, a wrong path).
  if (status >= 200 && status < 300)
    return `the answer is not ${provider}'s API format; check provider.base_url (GOVFLOW_BASE_URL) points at the model API`;
  return 'see the body excerpt';
}

/** A plain, scrubbed stand-in for the SDK error, so `cause` chains never carry the key. */
function scrubbedCause(error: unknown, apiKey: string | null): Error {
  const original = error instanceof Error ? error : new Error(String(error));
  const cause = new Error(scrubSecret(original.message, apiKey));
  cause.name = original.name;
  return cause;
}

/** Classifies one failed attempt: the caller's abort, an HTTP status, else a retryable network failure. */
export function translateProviderFailure(error: unknown, context: FailureContext): ProviderError {
  const { provider, model, apiKey } = context;
  const where = `${provider} model ${model}`;
  const inner = unwrap(error);
  const cause = scrubbedCause(inner, apiKey);

  if (context.callerSignal.aborted) {
    return new ProviderError(`The call to ${where} was cancelled by the caller.`, {
      provider,
      model,
      retryable: false,
      cause,
    });
  }
  if (APICallError.isInstance(inner) && inner.statusCode !== undefined) {
    const status = inner.statusCode;
    const body = excerpt(inner.responseBody, apiKey);
    const retryAfterMs = parseRetryAfterMs(inner.responseHeaders);
    const message = `${where} answered HTTP ${status}: ${adviceFor(status, provider)}.${body ? ` Body: ${body}` : ''}`;
    return new ProviderError(message, {
      provider,
      model,
      status,
      retryable: isRetryableStatus(status),
      retryAfterMs,
      bodyExcerpt: body,
      cause,
    });
  }
  const detail = scrubSecret(describeNetworkError(inner), apiKey);
  const message = `The call to ${where} failed before a complete answer: ${detail}. Retryable; check provider.base_url and the network if it persists.`;
  return new ProviderError(message, { provider, model, retryable: true, cause });
}

/** `fetch failed` alone says nothing; undici puts the useful code (ECONNREFUSED…) in `cause`. */
function describeNetworkError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as Error & { code?: unknown }).code;
    return `${error.message} (${typeof code === 'string' ? `${code}: ` : ''}${cause.message})`;
  }
  return error.message;
}
