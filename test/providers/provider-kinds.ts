/**
 * The real provider kinds as the tests drive them: each kind's model, where its SDK expects the
 * base URL to end, the wire format its requests use on the loopback server, and where its key
 * travels. One table for `govflow run` and `govflow start --http` end to end.
 */
import type { RecordedRequest } from '../llm/loopback-llm-server.js';

export interface KindCase {
  kind: 'openai' | 'openai-compatible' | 'ollama' | 'anthropic' | 'google';
  model: string;
  /** What follows the server address in provider.base_url for this SDK. */
  basePath: string;
  wire: RecordedRequest['wire'];
  /** The variable the key is passed in; `apiKeyEnvConfig` names it in provider.api_key_env. */
  keyEnv: string;
  apiKeyEnvConfig?: string;
  key: string;
  /** Where the SDK puts the key. */
  keyHeader: 'authorization' | 'x-api-key' | 'x-goog-api-key';
  /** `gen_ai.provider.name` on its `chat` spans (GenAI semantic conventions). */
  spanProvider: string;
}

export const KINDS: KindCase[] = [
  {
    kind: 'openai',
    model: 'gpt-4.1-mini',
    basePath: '/v1',
    wire: 'openai',
    keyEnv: 'OPENAI_API_KEY',
    key: 'sk-proj-OpenAiLoopbackK3y-7f3a9c1e5b2d',
    keyHeader: 'authorization',
    spanProvider: 'openai',
  },
  {
    kind: 'openai-compatible',
    model: 'qwen2.5-7b-instruct',
    basePath: '/v1',
    wire: 'openai',
    keyEnv: 'GATEWAY_TOKEN',
    apiKeyEnvConfig: 'GATEWAY_TOKEN',
    key: 'gw-CompatLoopbackK3y-2e8d4f6a0c1b',
    keyHeader: 'authorization',
    spanProvider: 'openai',
  },
  {
    kind: 'ollama',
    model: 'llama3.1:8b',
    basePath: '/v1',
    wire: 'openai',
    keyEnv: 'GOVFLOW_API_KEY',
    key: 'ollama-ProxyLoopbackK3y-9b7c5d3e1f0a',
    keyHeader: 'authorization',
    spanProvider: 'ollama',
  },
  {
    kind: 'anthropic',
    model: 'claude-sonnet-4-20250514',
    basePath: '/v1',
    wire: 'anthropic',
    keyEnv: 'ANTHROPIC_API_KEY',
    key: 'sk-ant-api03-AnthropicLoopbackK3y-4c6e8a0b2d',
    keyHeader: 'x-api-key',
    spanProvider: 'anthropic',
  },
  {
    kind: 'google',
    model: 'gemini-2.5-flash',
    basePath: '/v1beta',
    wire: 'gemini',
    keyEnv: 'GOOGLE_GENERATIVE_AI_API_KEY',
    key: 'AIzaSyGoogleLoopbackK3y-1a3c5e7b9d0f',
    keyHeader: 'x-goog-api-key',
    spanProvider: 'gcp.gemini',
  },
];

/** The `provider:` part of a config (YAML lines) for `testCase`, its SDK pointed at `baseUrl`. */
export function providerLines(testCase: KindCase, baseUrl: string): string[] {
  return [
    'provider:',
    `  kind: ${testCase.kind}`,
    `  model: ${JSON.stringify(testCase.model)}`,
    `  base_url: ${JSON.stringify(baseUrl)}`,
    ...(testCase.apiKeyEnvConfig ? [`  api_key_env: ${testCase.apiKeyEnvConfig}`] : []),
  ];
}
