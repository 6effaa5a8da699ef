// @ts-nocheck
// Written by scripts/builtin-validators.mjs (npm run validators) from the built-in JSON Schemas: do not edit.
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
export const config = validate10;
const schema11 = {
  type: 'object',
  additionalProperties: false,
  properties: {
    timezone: { type: 'string', minLength: 1 },
    provider: {
      type: 'object',
      additionalProperties: false,
      properties: {
        kind: {
          enum: [
            'dry-run',
            'scripted',
            'openai',
            'openai-compatible',
            'anthropic',
            'google',
            'ollama',
            'replay',
            'local',
          ],
        },
        model: { type: 'string', minLength: 1 },
        base_url: { type: ['string', 'null'] },
        api_key_env: { type: ['string', 'null'] },
        script: { type: ['string', 'null'] },
        stream: { type: 'boolean' },
        replay: {
          type: ['object', 'null'],
          additionalProperties: false,
          required: ['dir'],
          properties: { dir: { type: 'string', minLength: 1 }, on_miss: { enum: ['fail'] } },
        },
        local: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            threads: { type: ['integer', 'null'], minimum: 1 },
            context_size: { type: 'integer', minimum: 64 },
            gpu: { enum: [false, 'auto', 'cuda', 'vulkan', 'metal'] },
          },
        },
      },
    },
    llm: {
      type: 'object',
      additionalProperties: false,
      properties: {
        max_attempts: { type: 'integer', minimum: 1 },
        timeout_ms: { type: 'integer', minimum: 1 },
        backoff_base_ms: { type: 'integer', minimum: 0 },
        backoff_max_ms: { type: 'integer', minimum: 0 },
        max_output_bytes: { type: 'integer', minimum: 1 },
        record: { type: ['string', 'null'] },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      properties: {
        max_steps: { type: 'integer', minimum: 1 },
        max_fan_out: { type: 'integer', minimum: 1 },
        max_retries: { type: 'integer', minimum: 0 },
        session_timeout_ms: { type: 'integer', minimum: 1 },
        max_tokens_per_session: { type: ['integer', 'null'], minimum: 1 },
        max_cost_usd_per_session: { type: ['number', 'null'], exclusiveMinimum: 0 },
        max_crash_retries: { type: 'integer', minimum: 0 },
        max_depth: { type: 'integer', minimum: 0 },
        delegation_deadline_ms: { type: 'integer', minimum: 1 },
        max_tokens_per_delegation: { type: ['integer', 'null'], minimum: 1 },
        on_failure: { enum: ['intervene', null] },
        on_budget: { enum: ['halt', null] },
        on_deadline: { enum: ['halt', null] },
        user_daily_usd: {
          type: ['object', 'null'],
          propertyNames: { pattern: '^[A-Za-z0-9._@-]{1,128}$' },
          additionalProperties: { type: 'number', minimum: 0 },
        },
      },
    },
    intake: {
      type: 'object',
      additionalProperties: false,
      properties: {
        concurrency: { type: 'integer', minimum: 1 },
        max_bytes: { type: 'integer', minimum: 1 },
        rescan_interval_ms: { type: 'integer', minimum: 1 },
        settle_ms: { type: 'integer', minimum: 0 },
        min_free_bytes: { type: 'integer', minimum: 0 },
        attachments: {
          type: 'object',
          additionalProperties: false,
          properties: {
            max_files: { type: 'integer', minimum: 0 },
            max_bytes: { type: 'integer', minimum: 0 },
            inline_bytes: { type: 'integer', minimum: 0 },
          },
        },
      },
    },
    message: {
      type: 'object',
      additionalProperties: false,
      properties: {
        schema: { type: ['string', 'null'] },
        max_depth: { type: 'integer', minimum: 4, maximum: 1000 },
        format: { enum: ['sentient', 'sacp'] },
      },
    },
    prompt: {
      type: 'object',
      additionalProperties: false,
      properties: { include: { type: 'array', items: { type: 'string', minLength: 1 } } },
    },
    daemon: {
      type: 'object',
      additionalProperties: false,
      properties: { shutdown_grace_ms: { type: 'integer', minimum: 0 }, fsync: { type: 'boolean' } },
    },
    audit: {
      type: 'object',
      additionalProperties: false,
      properties: {
        signing_key: { type: ['string', 'null'] },
        checkpoint_ms: { type: 'integer', minimum: 1 },
        witnesses: { type: 'array', items: { type: 'string', minLength: 1 } },
        retention: {
          type: 'object',
          additionalProperties: false,
          properties: {
            keep_days: { type: ['integer', 'null'], minimum: 1 },
            archive: { enum: ['gzip'] },
            delete_after_days: { type: ['integer', 'null'], minimum: 1 },
          },
        },
      },
    },
    telemetry: {
      type: 'object',
      additionalProperties: false,
      properties: {
        otlp_endpoint: { type: ['string', 'null'], pattern: '^https?://' },
        capture_content: { type: 'boolean' },
        service_name: { type: 'string', minLength: 1 },
      },
    },
    http: {
      type: 'object',
      additionalProperties: false,
      properties: {
        listen: { type: ['string', 'null'], pattern: '^\\[?[^\\s]+\\]?:[0-9]{1,5}$' },
        tokens: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['user', 'sha256'],
            properties: {
              user: { type: 'string', pattern: '^[A-Za-z0-9._@-]{1,128}$' },
              sha256: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
              role: { enum: ['operator', 'auditor', 'admin'] },
            },
          },
        },
        max_body_bytes: { type: 'integer', minimum: 1 },
        heartbeat_ms: { type: 'integer', minimum: 100, maximum: 15000 },
        request_timeout_ms: { type: 'integer', minimum: 1 },
        rate_limit: {
          type: ['object', 'null'],
          additionalProperties: false,
          properties: {
            per_user_per_minute: { type: ['integer', 'null'], minimum: 1 },
            auth_failures_per_minute: { type: ['integer', 'null'], minimum: 1 },
          },
        },
        max_queued: { type: ['integer', 'null'], minimum: 1 },
        cors: {
          type: 'object',
          additionalProperties: false,
          properties: {
            origins: { type: 'array', uniqueItems: true, items: { type: 'string', pattern: '^https?://[^/\\s]+$' } },
          },
        },
        auth: {
          type: 'object',
          additionalProperties: false,
          properties: {
            jwt: {
              type: ['object', 'null'],
              additionalProperties: false,
              required: ['issuer', 'audience'],
              properties: {
                issuer: { type: 'string', minLength: 1 },
                audience: {
                  anyOf: [
                    { type: 'string', minLength: 1 },
                    { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
                  ],
                },
                jwks_url: { type: 'string', pattern: '^https?://[^\\s]+$' },
                public_key_file: { type: 'string', minLength: 1 },
                user_claim: { type: 'string', minLength: 1 },
                role_claim: { type: 'string', minLength: 1 },
                algorithms: {
                  type: 'array',
                  minItems: 1,
                  uniqueItems: true,
                  items: {
                    enum: [
                      'RS256',
                      'RS384',
                      'RS512',
                      'PS256',
                      'PS384',
                      'PS512',
                      'ES256',
                      'ES384',
                      'ES512',
                      'EdDSA',
                      'Ed25519',
                    ],
                  },
                },
              },
            },
          },
        },
      },
    },
    chat: {
      type: 'object',
      additionalProperties: false,
      properties: {
        contexts: {
          type: 'object',
          propertyNames: { pattern: '^[a-z][a-z0-9_-]{0,63}$' },
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            properties: {
              agent: { type: ['string', 'null'], minLength: 1 },
              context_file: { type: ['string', 'null'], minLength: 1 },
            },
          },
        },
        max_context_bytes: { type: 'integer', minimum: 1 },
        history_turns: { type: 'integer', minimum: 0, maximum: 1000 },
        progress: { type: 'boolean' },
      },
    },
    notify: {
      type: 'object',
      additionalProperties: false,
      properties: {
        webhooks: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['url', 'secret_env'],
            properties: {
              url: { type: 'string', pattern: '^https?://[^\\s]+$' },
              events: {
                type: 'array',
                minItems: 1,
                uniqueItems: true,
                items: {
                  enum: [
                    'session_finished',
                    'session_paused',
                    'approval_requested',
                    'session_cancelled',
                    'intervention_required',
                  ],
                },
              },
              secret_env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
            },
          },
        },
        allow_private_targets: { type: 'boolean' },
      },
    },
    tools: {
      type: 'object',
      additionalProperties: false,
      properties: {
        workspace: { type: 'string', minLength: 1 },
        max_result_bytes: { type: 'integer', minimum: 1 },
        max_file_bytes: { type: 'integer', minimum: 1 },
        http_get: {
          type: 'object',
          additionalProperties: false,
          properties: {
            allow_hosts: { type: 'array', items: { type: 'string', minLength: 1 } },
            max_bytes: { type: 'integer', minimum: 1 },
            timeout_ms: { type: 'integer', minimum: 1 },
            max_redirects: { type: 'integer', minimum: 0 },
          },
        },
        commands: {
          type: 'object',
          additionalProperties: false,
          properties: {
            allow: { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 } },
            auto_approve: { type: 'array', uniqueItems: true, items: { type: 'string', minLength: 1 } },
            timeout_ms: { type: 'integer', minimum: 1 },
            max_output_bytes: { type: 'integer', minimum: 1 },
            network: { type: 'boolean' },
            sandbox: { enum: ['bwrap', 'none'] },
          },
        },
      },
    },
    store: {
      type: 'object',
      additionalProperties: false,
      properties: {
        kind: { enum: ['files', 'postgres'] },
        url: { type: ['string', 'null'], minLength: 1 },
        schema: { type: 'string', pattern: '^[a-z_][a-z0-9_]{0,62}$' },
      },
    },
    cluster: {
      type: 'object',
      additionalProperties: false,
      properties: {
        lease_ms: { type: 'integer', minimum: 1000 },
        pool_size: { type: 'integer', minimum: 2, maximum: 100 },
        connect_timeout_ms: { type: 'integer', minimum: 100, maximum: 25000 },
      },
    },
    mcp: {
      type: 'object',
      additionalProperties: false,
      properties: {
        servers: {
          type: 'object',
          propertyNames: { pattern: '^[A-Za-z0-9_.-]+$' },
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            properties: {
              command: { type: 'string', minLength: 1 },
              args: { type: 'array', items: { type: 'string' } },
              env: { type: 'object', additionalProperties: { type: 'string' } },
              cwd: { type: 'string', minLength: 1 },
              url: { type: 'string', pattern: '^https?://' },
              headers_env: {
                type: 'object',
                additionalProperties: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
              },
              forward_authorization: { type: 'boolean' },
              timeout_ms: { type: 'integer', minimum: 1 },
            },
          },
        },
        timeout_ms: { type: 'integer', minimum: 1 },
      },
    },
    prices: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['input', 'output'],
        properties: {
          input: { type: 'number', minimum: 0 },
          output: { type: 'number', minimum: 0 },
          cached_input: { type: 'number', minimum: 0 },
        },
      },
    },
    pricing: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['input_per_mtok', 'output_per_mtok'],
        properties: {
          input_per_mtok: { type: 'number', minimum: 0 },
          output_per_mtok: { type: 'number', minimum: 0 },
          cached_input_per_mtok: { type: 'number', minimum: 0 },
        },
      },
    },
    allow_outside_root: { type: 'boolean' },
    pii: {
      type: 'object',
      additionalProperties: false,
      properties: {
        redact: {
          type: 'array',
          uniqueItems: true,
          items: { enum: ['email', 'phone', 'credit_card', 'iban', 'national_id', 'ip_address', 'secret'] },
        },
        custom: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'pattern'],
            properties: {
              name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
              pattern: { type: 'string', minLength: 1 },
            },
          },
        },
        restore_in_result: { type: 'boolean' },
      },
    },
    privacy: {
      type: 'object',
      additionalProperties: false,
      properties: { vault_key_file: { type: ['string', 'null'] } },
    },
    guardrails: { type: 'array', items: { type: 'object' } },
    agents: {
      type: 'object',
      properties: {
        claude_code_dir: { type: ['string', 'null'] },
        claude_code: {
          type: 'object',
          additionalProperties: false,
          properties: { unknown_tools: { enum: ['warn', 'error'] } },
        },
      },
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        required: ['type', 'description'],
        properties: {
          name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
          type: { enum: ['governance', 'operational', 'executional'] },
          description: { type: 'string', minLength: 1 },
          entry: { type: 'boolean' },
          next: { type: ['array', 'null'], items: { type: 'string' }, uniqueItems: true },
          content_type: { type: 'string', minLength: 1 },
          output_schema: { type: ['string', 'object'] },
          plan: { type: 'boolean' },
          on_failure: { type: 'string' },
          model: { type: 'string', minLength: 1 },
          temperature: { type: 'number', minimum: 0, maximum: 2 },
          max_tokens: { type: 'integer', minimum: 1 },
          timeout_ms: { type: 'integer', minimum: 1 },
          max_retries: { type: 'integer', minimum: 0 },
          file: { type: 'string' },
          tools: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
          max_turns: { type: 'integer', minimum: 1 },
          approval: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
          delegates: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
          attachments: { enum: ['inline', 'list', 'native'] },
          routes: {
            type: 'array',
            items: {
              type: 'object',
              additionalProperties: false,
              required: ['to'],
              properties: { when: { type: 'string', minLength: 1 }, to: { type: ['string', 'null'], minLength: 1 } },
            },
          },
          input: { type: 'string', minLength: 1 },
          answer: { type: 'string', minLength: 1 },
          protocol: { enum: ['sentient', 'none'] },
          message_format: { enum: ['sentient', 'sacp'] },
        },
      },
    },
  },
};
const func2 = Object.prototype.hasOwnProperty;
const func3 = require('ajv/dist/runtime/ucs2length').default;
const func0 = require('ajv/dist/runtime/equal').default;
const pattern0 = new RegExp('^[A-Za-z0-9._@-]{1,128}$', 'u');
const pattern1 = new RegExp('^https?://', 'u');
const pattern2 = new RegExp('^\\[?[^\\s]+\\]?:[0-9]{1,5}$', 'u');
const pattern4 = new RegExp('^[0-9a-fA-F]{64}$', 'u');
const pattern5 = new RegExp('^https?://[^/\\s]+$', 'u');
const pattern6 = new RegExp('^https?://[^\\s]+$', 'u');
const pattern7 = new RegExp('^[a-z][a-z0-9_-]{0,63}$', 'u');
const pattern9 = new RegExp('^[A-Za-z_][A-Za-z0-9_]*$', 'u');
const pattern10 = new RegExp('^[a-z_][a-z0-9_]{0,62}$', 'u');
const pattern11 = new RegExp('^[A-Za-z0-9_.-]+$', 'u');
const pattern14 = new RegExp('^[a-z][a-z0-9_]*$', 'u');
function validate10(data, { instancePath = '', parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (data && typeof data == 'object' && !Array.isArray(data)) {
    for (const key0 in data) {
      if (!func2.call(schema11.properties, key0)) {
        const err0 = {
          instancePath,
          schemaPath: '#/additionalProperties',
          keyword: 'additionalProperties',
          params: { additionalProperty: key0 },
          message: 'must NOT have additional properties',
        };
        if (vErrors === null) {
          vErrors = [err0];
        } else {
          vErrors.push(err0);
        }
        errors++;
      }
    }
    if (data.timezone !== undefined) {
      let data0 = data.timezone;
      if (typeof data0 === 'string') {
        if (func3(data0) < 1) {
          const err1 = {
            instancePath: instancePath + '/timezone',
            schemaPath: '#/properties/timezone/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err1];
          } else {
            vErrors.push(err1);
          }
          errors++;
        }
      } else {
        const err2 = {
          instancePath: instancePath + '/timezone',
          schemaPath: '#/properties/timezone/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err2];
        } else {
          vErrors.push(err2);
        }
        errors++;
      }
    }
    if (data.provider !== undefined) {
      let data1 = data.provider;
      if (data1 && typeof data1 == 'object' && !Array.isArray(data1)) {
        for (const key1 in data1) {
          if (!(
            key1 === 'kind' ||
            key1 === 'model' ||
            key1 === 'base_url' ||
            key1 === 'api_key_env' ||
            key1 === 'script' ||
            key1 === 'stream' ||
            key1 === 'replay' ||
            key1 === 'local'
          )) {
            const err3 = {
              instancePath: instancePath + '/provider',
              schemaPath: '#/properties/provider/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key1 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err3];
            } else {
              vErrors.push(err3);
            }
            errors++;
          }
        }
        if (data1.kind !== undefined) {
          let data2 = data1.kind;
          if (!(
            data2 === 'dry-run' ||
            data2 === 'scripted' ||
            data2 === 'openai' ||
            data2 === 'openai-compatible' ||
            data2 === 'anthropic' ||
            data2 === 'google' ||
            data2 === 'ollama' ||
            data2 === 'replay' ||
            data2 === 'local'
          )) {
            const err4 = {
              instancePath: instancePath + '/provider/kind',
              schemaPath: '#/properties/provider/properties/kind/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.provider.properties.kind.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err4];
            } else {
              vErrors.push(err4);
            }
            errors++;
          }
        }
        if (data1.model !== undefined) {
          let data3 = data1.model;
          if (typeof data3 === 'string') {
            if (func3(data3) < 1) {
              const err5 = {
                instancePath: instancePath + '/provider/model',
                schemaPath: '#/properties/provider/properties/model/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err5];
              } else {
                vErrors.push(err5);
              }
              errors++;
            }
          } else {
            const err6 = {
              instancePath: instancePath + '/provider/model',
              schemaPath: '#/properties/provider/properties/model/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err6];
            } else {
              vErrors.push(err6);
            }
            errors++;
          }
        }
        if (data1.base_url !== undefined) {
          let data4 = data1.base_url;
          if (typeof data4 !== 'string' && data4 !== null) {
            const err7 = {
              instancePath: instancePath + '/provider/base_url',
              schemaPath: '#/properties/provider/properties/base_url/type',
              keyword: 'type',
              params: { type: schema11.properties.provider.properties.base_url.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err7];
            } else {
              vErrors.push(err7);
            }
            errors++;
          }
        }
        if (data1.api_key_env !== undefined) {
          let data5 = data1.api_key_env;
          if (typeof data5 !== 'string' && data5 !== null) {
            const err8 = {
              instancePath: instancePath + '/provider/api_key_env',
              schemaPath: '#/properties/provider/properties/api_key_env/type',
              keyword: 'type',
              params: { type: schema11.properties.provider.properties.api_key_env.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err8];
            } else {
              vErrors.push(err8);
            }
            errors++;
          }
        }
        if (data1.script !== undefined) {
          let data6 = data1.script;
          if (typeof data6 !== 'string' && data6 !== null) {
            const err9 = {
              instancePath: instancePath + '/provider/script',
              schemaPath: '#/properties/provider/properties/script/type',
              keyword: 'type',
              params: { type: schema11.properties.provider.properties.script.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err9];
            } else {
              vErrors.push(err9);
            }
            errors++;
          }
        }
        if (data1.stream !== undefined) {
          if (typeof data1.stream !== 'boolean') {
            const err10 = {
              instancePath: instancePath + '/provider/stream',
              schemaPath: '#/properties/provider/properties/stream/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err10];
            } else {
              vErrors.push(err10);
            }
            errors++;
          }
        }
        if (data1.replay !== undefined) {
          let data8 = data1.replay;
          if (!(data8 && typeof data8 == 'object' && !Array.isArray(data8)) && data8 !== null) {
            const err11 = {
              instancePath: instancePath + '/provider/replay',
              schemaPath: '#/properties/provider/properties/replay/type',
              keyword: 'type',
              params: { type: schema11.properties.provider.properties.replay.type },
              message: 'must be object,null',
            };
            if (vErrors === null) {
              vErrors = [err11];
            } else {
              vErrors.push(err11);
            }
            errors++;
          }
          if (data8 && typeof data8 == 'object' && !Array.isArray(data8)) {
            if (data8.dir === undefined) {
              const err12 = {
                instancePath: instancePath + '/provider/replay',
                schemaPath: '#/properties/provider/properties/replay/required',
                keyword: 'required',
                params: { missingProperty: 'dir' },
                message: "must have required property '" + 'dir' + "'",
              };
              if (vErrors === null) {
                vErrors = [err12];
              } else {
                vErrors.push(err12);
              }
              errors++;
            }
            for (const key2 in data8) {
              if (!(key2 === 'dir' || key2 === 'on_miss')) {
                const err13 = {
                  instancePath: instancePath + '/provider/replay',
                  schemaPath: '#/properties/provider/properties/replay/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key2 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err13];
                } else {
                  vErrors.push(err13);
                }
                errors++;
              }
            }
            if (data8.dir !== undefined) {
              let data9 = data8.dir;
              if (typeof data9 === 'string') {
                if (func3(data9) < 1) {
                  const err14 = {
                    instancePath: instancePath + '/provider/replay/dir',
                    schemaPath: '#/properties/provider/properties/replay/properties/dir/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err14];
                  } else {
                    vErrors.push(err14);
                  }
                  errors++;
                }
              } else {
                const err15 = {
                  instancePath: instancePath + '/provider/replay/dir',
                  schemaPath: '#/properties/provider/properties/replay/properties/dir/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err15];
                } else {
                  vErrors.push(err15);
                }
                errors++;
              }
            }
            if (data8.on_miss !== undefined) {
              if (!(data8.on_miss === 'fail')) {
                const err16 = {
                  instancePath: instancePath + '/provider/replay/on_miss',
                  schemaPath: '#/properties/provider/properties/replay/properties/on_miss/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.provider.properties.replay.properties.on_miss.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err16];
                } else {
                  vErrors.push(err16);
                }
                errors++;
              }
            }
          }
        }
        if (data1.local !== undefined) {
          let data11 = data1.local;
          if (!(data11 && typeof data11 == 'object' && !Array.isArray(data11)) && data11 !== null) {
            const err17 = {
              instancePath: instancePath + '/provider/local',
              schemaPath: '#/properties/provider/properties/local/type',
              keyword: 'type',
              params: { type: schema11.properties.provider.properties.local.type },
              message: 'must be object,null',
            };
            if (vErrors === null) {
              vErrors = [err17];
            } else {
              vErrors.push(err17);
            }
            errors++;
          }
          if (data11 && typeof data11 == 'object' && !Array.isArray(data11)) {
            for (const key3 in data11) {
              if (!(key3 === 'threads' || key3 === 'context_size' || key3 === 'gpu')) {
                const err18 = {
                  instancePath: instancePath + '/provider/local',
                  schemaPath: '#/properties/provider/properties/local/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key3 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err18];
                } else {
                  vErrors.push(err18);
                }
                errors++;
              }
            }
            if (data11.threads !== undefined) {
              let data12 = data11.threads;
              if (!(typeof data12 == 'number' && !(data12 % 1) && !isNaN(data12)) && data12 !== null) {
                const err19 = {
                  instancePath: instancePath + '/provider/local/threads',
                  schemaPath: '#/properties/provider/properties/local/properties/threads/type',
                  keyword: 'type',
                  params: { type: schema11.properties.provider.properties.local.properties.threads.type },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err19];
                } else {
                  vErrors.push(err19);
                }
                errors++;
              }
              if (typeof data12 == 'number') {
                if (data12 < 1 || isNaN(data12)) {
                  const err20 = {
                    instancePath: instancePath + '/provider/local/threads',
                    schemaPath: '#/properties/provider/properties/local/properties/threads/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err20];
                  } else {
                    vErrors.push(err20);
                  }
                  errors++;
                }
              }
            }
            if (data11.context_size !== undefined) {
              let data13 = data11.context_size;
              if (!(typeof data13 == 'number' && !(data13 % 1) && !isNaN(data13))) {
                const err21 = {
                  instancePath: instancePath + '/provider/local/context_size',
                  schemaPath: '#/properties/provider/properties/local/properties/context_size/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err21];
                } else {
                  vErrors.push(err21);
                }
                errors++;
              }
              if (typeof data13 == 'number') {
                if (data13 < 64 || isNaN(data13)) {
                  const err22 = {
                    instancePath: instancePath + '/provider/local/context_size',
                    schemaPath: '#/properties/provider/properties/local/properties/context_size/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 64 },
                    message: 'must be >= 64',
                  };
                  if (vErrors === null) {
                    vErrors = [err22];
                  } else {
                    vErrors.push(err22);
                  }
                  errors++;
                }
              }
            }
            if (data11.gpu !== undefined) {
              let data14 = data11.gpu;
              if (!(
                data14 === false ||
                data14 === 'auto' ||
                data14 === 'cuda' ||
                data14 === 'vulkan' ||
                data14 === 'metal'
              )) {
                const err23 = {
                  instancePath: instancePath + '/provider/local/gpu',
                  schemaPath: '#/properties/provider/properties/local/properties/gpu/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.provider.properties.local.properties.gpu.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err23];
                } else {
                  vErrors.push(err23);
                }
                errors++;
              }
            }
          }
        }
      } else {
        const err24 = {
          instancePath: instancePath + '/provider',
          schemaPath: '#/properties/provider/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err24];
        } else {
          vErrors.push(err24);
        }
        errors++;
      }
    }
    if (data.llm !== undefined) {
      let data15 = data.llm;
      if (data15 && typeof data15 == 'object' && !Array.isArray(data15)) {
        for (const key4 in data15) {
          if (!(
            key4 === 'max_attempts' ||
            key4 === 'timeout_ms' ||
            key4 === 'backoff_base_ms' ||
            key4 === 'backoff_max_ms' ||
            key4 === 'max_output_bytes' ||
            key4 === 'record'
          )) {
            const err25 = {
              instancePath: instancePath + '/llm',
              schemaPath: '#/properties/llm/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key4 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err25];
            } else {
              vErrors.push(err25);
            }
            errors++;
          }
        }
        if (data15.max_attempts !== undefined) {
          let data16 = data15.max_attempts;
          if (!(typeof data16 == 'number' && !(data16 % 1) && !isNaN(data16))) {
            const err26 = {
              instancePath: instancePath + '/llm/max_attempts',
              schemaPath: '#/properties/llm/properties/max_attempts/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err26];
            } else {
              vErrors.push(err26);
            }
            errors++;
          }
          if (typeof data16 == 'number') {
            if (data16 < 1 || isNaN(data16)) {
              const err27 = {
                instancePath: instancePath + '/llm/max_attempts',
                schemaPath: '#/properties/llm/properties/max_attempts/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err27];
              } else {
                vErrors.push(err27);
              }
              errors++;
            }
          }
        }
        if (data15.timeout_ms !== undefined) {
          let data17 = data15.timeout_ms;
          if (!(typeof data17 == 'number' && !(data17 % 1) && !isNaN(data17))) {
            const err28 = {
              instancePath: instancePath + '/llm/timeout_ms',
              schemaPath: '#/properties/llm/properties/timeout_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err28];
            } else {
              vErrors.push(err28);
            }
            errors++;
          }
          if (typeof data17 == 'number') {
            if (data17 < 1 || isNaN(data17)) {
              const err29 = {
                instancePath: instancePath + '/llm/timeout_ms',
                schemaPath: '#/properties/llm/properties/timeout_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err29];
              } else {
                vErrors.push(err29);
              }
              errors++;
            }
          }
        }
        if (data15.backoff_base_ms !== undefined) {
          let data18 = data15.backoff_base_ms;
          if (!(typeof data18 == 'number' && !(data18 % 1) && !isNaN(data18))) {
            const err30 = {
              instancePath: instancePath + '/llm/backoff_base_ms',
              schemaPath: '#/properties/llm/properties/backoff_base_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err30];
            } else {
              vErrors.push(err30);
            }
            errors++;
          }
          if (typeof data18 == 'number') {
            if (data18 < 0 || isNaN(data18)) {
              const err31 = {
                instancePath: instancePath + '/llm/backoff_base_ms',
                schemaPath: '#/properties/llm/properties/backoff_base_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err31];
              } else {
                vErrors.push(err31);
              }
              errors++;
            }
          }
        }
        if (data15.backoff_max_ms !== undefined) {
          let data19 = data15.backoff_max_ms;
          if (!(typeof data19 == 'number' && !(data19 % 1) && !isNaN(data19))) {
            const err32 = {
              instancePath: instancePath + '/llm/backoff_max_ms',
              schemaPath: '#/properties/llm/properties/backoff_max_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err32];
            } else {
              vErrors.push(err32);
            }
            errors++;
          }
          if (typeof data19 == 'number') {
            if (data19 < 0 || isNaN(data19)) {
              const err33 = {
                instancePath: instancePath + '/llm/backoff_max_ms',
                schemaPath: '#/properties/llm/properties/backoff_max_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err33];
              } else {
                vErrors.push(err33);
              }
              errors++;
            }
          }
        }
        if (data15.max_output_bytes !== undefined) {
          let data20 = data15.max_output_bytes;
          if (!(typeof data20 == 'number' && !(data20 % 1) && !isNaN(data20))) {
            const err34 = {
              instancePath: instancePath + '/llm/max_output_bytes',
              schemaPath: '#/properties/llm/properties/max_output_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err34];
            } else {
              vErrors.push(err34);
            }
            errors++;
          }
          if (typeof data20 == 'number') {
            if (data20 < 1 || isNaN(data20)) {
              const err35 = {
                instancePath: instancePath + '/llm/max_output_bytes',
                schemaPath: '#/properties/llm/properties/max_output_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err35];
              } else {
                vErrors.push(err35);
              }
              errors++;
            }
          }
        }
        if (data15.record !== undefined) {
          let data21 = data15.record;
          if (typeof data21 !== 'string' && data21 !== null) {
            const err36 = {
              instancePath: instancePath + '/llm/record',
              schemaPath: '#/properties/llm/properties/record/type',
              keyword: 'type',
              params: { type: schema11.properties.llm.properties.record.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err36];
            } else {
              vErrors.push(err36);
            }
            errors++;
          }
        }
      } else {
        const err37 = {
          instancePath: instancePath + '/llm',
          schemaPath: '#/properties/llm/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err37];
        } else {
          vErrors.push(err37);
        }
        errors++;
      }
    }
    if (data.limits !== undefined) {
      let data22 = data.limits;
      if (data22 && typeof data22 == 'object' && !Array.isArray(data22)) {
        for (const key5 in data22) {
          if (!func2.call(schema11.properties.limits.properties, key5)) {
            const err38 = {
              instancePath: instancePath + '/limits',
              schemaPath: '#/properties/limits/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key5 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err38];
            } else {
              vErrors.push(err38);
            }
            errors++;
          }
        }
        if (data22.max_steps !== undefined) {
          let data23 = data22.max_steps;
          if (!(typeof data23 == 'number' && !(data23 % 1) && !isNaN(data23))) {
            const err39 = {
              instancePath: instancePath + '/limits/max_steps',
              schemaPath: '#/properties/limits/properties/max_steps/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err39];
            } else {
              vErrors.push(err39);
            }
            errors++;
          }
          if (typeof data23 == 'number') {
            if (data23 < 1 || isNaN(data23)) {
              const err40 = {
                instancePath: instancePath + '/limits/max_steps',
                schemaPath: '#/properties/limits/properties/max_steps/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err40];
              } else {
                vErrors.push(err40);
              }
              errors++;
            }
          }
        }
        if (data22.max_fan_out !== undefined) {
          let data24 = data22.max_fan_out;
          if (!(typeof data24 == 'number' && !(data24 % 1) && !isNaN(data24))) {
            const err41 = {
              instancePath: instancePath + '/limits/max_fan_out',
              schemaPath: '#/properties/limits/properties/max_fan_out/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err41];
            } else {
              vErrors.push(err41);
            }
            errors++;
          }
          if (typeof data24 == 'number') {
            if (data24 < 1 || isNaN(data24)) {
              const err42 = {
                instancePath: instancePath + '/limits/max_fan_out',
                schemaPath: '#/properties/limits/properties/max_fan_out/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err42];
              } else {
                vErrors.push(err42);
              }
              errors++;
            }
          }
        }
        if (data22.max_retries !== undefined) {
          let data25 = data22.max_retries;
          if (!(typeof data25 == 'number' && !(data25 % 1) && !isNaN(data25))) {
            const err43 = {
              instancePath: instancePath + '/limits/max_retries',
              schemaPath: '#/properties/limits/properties/max_retries/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err43];
            } else {
              vErrors.push(err43);
            }
            errors++;
          }
          if (typeof data25 == 'number') {
            if (data25 < 0 || isNaN(data25)) {
              const err44 = {
                instancePath: instancePath + '/limits/max_retries',
                schemaPath: '#/properties/limits/properties/max_retries/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err44];
              } else {
                vErrors.push(err44);
              }
              errors++;
            }
          }
        }
        if (data22.session_timeout_ms !== undefined) {
          let data26 = data22.session_timeout_ms;
          if (!(typeof data26 == 'number' && !(data26 % 1) && !isNaN(data26))) {
            const err45 = {
              instancePath: instancePath + '/limits/session_timeout_ms',
              schemaPath: '#/properties/limits/properties/session_timeout_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err45];
            } else {
              vErrors.push(err45);
            }
            errors++;
          }
          if (typeof data26 == 'number') {
            if (data26 < 1 || isNaN(data26)) {
              const err46 = {
                instancePath: instancePath + '/limits/session_timeout_ms',
                schemaPath: '#/properties/limits/properties/session_timeout_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err46];
              } else {
                vErrors.push(err46);
              }
              errors++;
            }
          }
        }
        if (data22.max_tokens_per_session !== undefined) {
          let data27 = data22.max_tokens_per_session;
          if (!(typeof data27 == 'number' && !(data27 % 1) && !isNaN(data27)) && data27 !== null) {
            const err47 = {
              instancePath: instancePath + '/limits/max_tokens_per_session',
              schemaPath: '#/properties/limits/properties/max_tokens_per_session/type',
              keyword: 'type',
              params: { type: schema11.properties.limits.properties.max_tokens_per_session.type },
              message: 'must be integer,null',
            };
            if (vErrors === null) {
              vErrors = [err47];
            } else {
              vErrors.push(err47);
            }
            errors++;
          }
          if (typeof data27 == 'number') {
            if (data27 < 1 || isNaN(data27)) {
              const err48 = {
                instancePath: instancePath + '/limits/max_tokens_per_session',
                schemaPath: '#/properties/limits/properties/max_tokens_per_session/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err48];
              } else {
                vErrors.push(err48);
              }
              errors++;
            }
          }
        }
        if (data22.max_cost_usd_per_session !== undefined) {
          let data28 = data22.max_cost_usd_per_session;
          if (!(typeof data28 == 'number') && data28 !== null) {
            const err49 = {
              instancePath: instancePath + '/limits/max_cost_usd_per_session',
              schemaPath: '#/properties/limits/properties/max_cost_usd_per_session/type',
              keyword: 'type',
              params: { type: schema11.properties.limits.properties.max_cost_usd_per_session.type },
              message: 'must be number,null',
            };
            if (vErrors === null) {
              vErrors = [err49];
            } else {
              vErrors.push(err49);
            }
            errors++;
          }
          if (typeof data28 == 'number') {
            if (data28 <= 0 || isNaN(data28)) {
              const err50 = {
                instancePath: instancePath + '/limits/max_cost_usd_per_session',
                schemaPath: '#/properties/limits/properties/max_cost_usd_per_session/exclusiveMinimum',
                keyword: 'exclusiveMinimum',
                params: { comparison: '>', limit: 0 },
                message: 'must be > 0',
              };
              if (vErrors === null) {
                vErrors = [err50];
              } else {
                vErrors.push(err50);
              }
              errors++;
            }
          }
        }
        if (data22.max_crash_retries !== undefined) {
          let data29 = data22.max_crash_retries;
          if (!(typeof data29 == 'number' && !(data29 % 1) && !isNaN(data29))) {
            const err51 = {
              instancePath: instancePath + '/limits/max_crash_retries',
              schemaPath: '#/properties/limits/properties/max_crash_retries/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err51];
            } else {
              vErrors.push(err51);
            }
            errors++;
          }
          if (typeof data29 == 'number') {
            if (data29 < 0 || isNaN(data29)) {
              const err52 = {
                instancePath: instancePath + '/limits/max_crash_retries',
                schemaPath: '#/properties/limits/properties/max_crash_retries/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err52];
              } else {
                vErrors.push(err52);
              }
              errors++;
            }
          }
        }
        if (data22.max_depth !== undefined) {
          let data30 = data22.max_depth;
          if (!(typeof data30 == 'number' && !(data30 % 1) && !isNaN(data30))) {
            const err53 = {
              instancePath: instancePath + '/limits/max_depth',
              schemaPath: '#/properties/limits/properties/max_depth/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err53];
            } else {
              vErrors.push(err53);
            }
            errors++;
          }
          if (typeof data30 == 'number') {
            if (data30 < 0 || isNaN(data30)) {
              const err54 = {
                instancePath: instancePath + '/limits/max_depth',
                schemaPath: '#/properties/limits/properties/max_depth/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err54];
              } else {
                vErrors.push(err54);
              }
              errors++;
            }
          }
        }
        if (data22.delegation_deadline_ms !== undefined) {
          let data31 = data22.delegation_deadline_ms;
          if (!(typeof data31 == 'number' && !(data31 % 1) && !isNaN(data31))) {
            const err55 = {
              instancePath: instancePath + '/limits/delegation_deadline_ms',
              schemaPath: '#/properties/limits/properties/delegation_deadline_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err55];
            } else {
              vErrors.push(err55);
            }
            errors++;
          }
          if (typeof data31 == 'number') {
            if (data31 < 1 || isNaN(data31)) {
              const err56 = {
                instancePath: instancePath + '/limits/delegation_deadline_ms',
                schemaPath: '#/properties/limits/properties/delegation_deadline_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err56];
              } else {
                vErrors.push(err56);
              }
              errors++;
            }
          }
        }
        if (data22.max_tokens_per_delegation !== undefined) {
          let data32 = data22.max_tokens_per_delegation;
          if (!(typeof data32 == 'number' && !(data32 % 1) && !isNaN(data32)) && data32 !== null) {
            const err57 = {
              instancePath: instancePath + '/limits/max_tokens_per_delegation',
              schemaPath: '#/properties/limits/properties/max_tokens_per_delegation/type',
              keyword: 'type',
              params: { type: schema11.properties.limits.properties.max_tokens_per_delegation.type },
              message: 'must be integer,null',
            };
            if (vErrors === null) {
              vErrors = [err57];
            } else {
              vErrors.push(err57);
            }
            errors++;
          }
          if (typeof data32 == 'number') {
            if (data32 < 1 || isNaN(data32)) {
              const err58 = {
                instancePath: instancePath + '/limits/max_tokens_per_delegation',
                schemaPath: '#/properties/limits/properties/max_tokens_per_delegation/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err58];
              } else {
                vErrors.push(err58);
              }
              errors++;
            }
          }
        }
        if (data22.on_failure !== undefined) {
          let data33 = data22.on_failure;
          if (!(data33 === 'intervene' || data33 === null)) {
            const err59 = {
              instancePath: instancePath + '/limits/on_failure',
              schemaPath: '#/properties/limits/properties/on_failure/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.limits.properties.on_failure.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err59];
            } else {
              vErrors.push(err59);
            }
            errors++;
          }
        }
        if (data22.on_budget !== undefined) {
          let data34 = data22.on_budget;
          if (!(data34 === 'halt' || data34 === null)) {
            const err60 = {
              instancePath: instancePath + '/limits/on_budget',
              schemaPath: '#/properties/limits/properties/on_budget/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.limits.properties.on_budget.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err60];
            } else {
              vErrors.push(err60);
            }
            errors++;
          }
        }
        if (data22.on_deadline !== undefined) {
          let data35 = data22.on_deadline;
          if (!(data35 === 'halt' || data35 === null)) {
            const err61 = {
              instancePath: instancePath + '/limits/on_deadline',
              schemaPath: '#/properties/limits/properties/on_deadline/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.limits.properties.on_deadline.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err61];
            } else {
              vErrors.push(err61);
            }
            errors++;
          }
        }
        if (data22.user_daily_usd !== undefined) {
          let data36 = data22.user_daily_usd;
          if (!(data36 && typeof data36 == 'object' && !Array.isArray(data36)) && data36 !== null) {
            const err62 = {
              instancePath: instancePath + '/limits/user_daily_usd',
              schemaPath: '#/properties/limits/properties/user_daily_usd/type',
              keyword: 'type',
              params: { type: schema11.properties.limits.properties.user_daily_usd.type },
              message: 'must be object,null',
            };
            if (vErrors === null) {
              vErrors = [err62];
            } else {
              vErrors.push(err62);
            }
            errors++;
          }
          if (data36 && typeof data36 == 'object' && !Array.isArray(data36)) {
            for (const key6 in data36) {
              const _errs75 = errors;
              if (typeof key6 === 'string') {
                if (!pattern0.test(key6)) {
                  const err63 = {
                    instancePath: instancePath + '/limits/user_daily_usd',
                    schemaPath: '#/properties/limits/properties/user_daily_usd/propertyNames/pattern',
                    keyword: 'pattern',
                    params: { pattern: '^[A-Za-z0-9._@-]{1,128}$' },
                    message: 'must match pattern "' + '^[A-Za-z0-9._@-]{1,128}$' + '"',
                    propertyName: key6,
                  };
                  if (vErrors === null) {
                    vErrors = [err63];
                  } else {
                    vErrors.push(err63);
                  }
                  errors++;
                }
              }
              var valid6 = _errs75 === errors;
              if (!valid6) {
                const err64 = {
                  instancePath: instancePath + '/limits/user_daily_usd',
                  schemaPath: '#/properties/limits/properties/user_daily_usd/propertyNames',
                  keyword: 'propertyNames',
                  params: { propertyName: key6 },
                  message: 'property name must be valid',
                };
                if (vErrors === null) {
                  vErrors = [err64];
                } else {
                  vErrors.push(err64);
                }
                errors++;
              }
            }
            for (const key7 in data36) {
              let data37 = data36[key7];
              if (typeof data37 == 'number') {
                if (data37 < 0 || isNaN(data37)) {
                  const err65 = {
                    instancePath:
                      instancePath + '/limits/user_daily_usd/' + key7.replace(/~/g, '~0').replace(/\//g, '~1'),
                    schemaPath: '#/properties/limits/properties/user_daily_usd/additionalProperties/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err65];
                  } else {
                    vErrors.push(err65);
                  }
                  errors++;
                }
              } else {
                const err66 = {
                  instancePath:
                    instancePath + '/limits/user_daily_usd/' + key7.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/limits/properties/user_daily_usd/additionalProperties/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err66];
                } else {
                  vErrors.push(err66);
                }
                errors++;
              }
            }
          }
        }
      } else {
        const err67 = {
          instancePath: instancePath + '/limits',
          schemaPath: '#/properties/limits/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err67];
        } else {
          vErrors.push(err67);
        }
        errors++;
      }
    }
    if (data.intake !== undefined) {
      let data38 = data.intake;
      if (data38 && typeof data38 == 'object' && !Array.isArray(data38)) {
        for (const key8 in data38) {
          if (!(
            key8 === 'concurrency' ||
            key8 === 'max_bytes' ||
            key8 === 'rescan_interval_ms' ||
            key8 === 'settle_ms' ||
            key8 === 'min_free_bytes' ||
            key8 === 'attachments'
          )) {
            const err68 = {
              instancePath: instancePath + '/intake',
              schemaPath: '#/properties/intake/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key8 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err68];
            } else {
              vErrors.push(err68);
            }
            errors++;
          }
        }
        if (data38.concurrency !== undefined) {
          let data39 = data38.concurrency;
          if (!(typeof data39 == 'number' && !(data39 % 1) && !isNaN(data39))) {
            const err69 = {
              instancePath: instancePath + '/intake/concurrency',
              schemaPath: '#/properties/intake/properties/concurrency/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err69];
            } else {
              vErrors.push(err69);
            }
            errors++;
          }
          if (typeof data39 == 'number') {
            if (data39 < 1 || isNaN(data39)) {
              const err70 = {
                instancePath: instancePath + '/intake/concurrency',
                schemaPath: '#/properties/intake/properties/concurrency/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err70];
              } else {
                vErrors.push(err70);
              }
              errors++;
            }
          }
        }
        if (data38.max_bytes !== undefined) {
          let data40 = data38.max_bytes;
          if (!(typeof data40 == 'number' && !(data40 % 1) && !isNaN(data40))) {
            const err71 = {
              instancePath: instancePath + '/intake/max_bytes',
              schemaPath: '#/properties/intake/properties/max_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err71];
            } else {
              vErrors.push(err71);
            }
            errors++;
          }
          if (typeof data40 == 'number') {
            if (data40 < 1 || isNaN(data40)) {
              const err72 = {
                instancePath: instancePath + '/intake/max_bytes',
                schemaPath: '#/properties/intake/properties/max_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err72];
              } else {
                vErrors.push(err72);
              }
              errors++;
            }
          }
        }
        if (data38.rescan_interval_ms !== undefined) {
          let data41 = data38.rescan_interval_ms;
          if (!(typeof data41 == 'number' && !(data41 % 1) && !isNaN(data41))) {
            const err73 = {
              instancePath: instancePath + '/intake/rescan_interval_ms',
              schemaPath: '#/properties/intake/properties/rescan_interval_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err73];
            } else {
              vErrors.push(err73);
            }
            errors++;
          }
          if (typeof data41 == 'number') {
            if (data41 < 1 || isNaN(data41)) {
              const err74 = {
                instancePath: instancePath + '/intake/rescan_interval_ms',
                schemaPath: '#/properties/intake/properties/rescan_interval_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err74];
              } else {
                vErrors.push(err74);
              }
              errors++;
            }
          }
        }
        if (data38.settle_ms !== undefined) {
          let data42 = data38.settle_ms;
          if (!(typeof data42 == 'number' && !(data42 % 1) && !isNaN(data42))) {
            const err75 = {
              instancePath: instancePath + '/intake/settle_ms',
              schemaPath: '#/properties/intake/properties/settle_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err75];
            } else {
              vErrors.push(err75);
            }
            errors++;
          }
          if (typeof data42 == 'number') {
            if (data42 < 0 || isNaN(data42)) {
              const err76 = {
                instancePath: instancePath + '/intake/settle_ms',
                schemaPath: '#/properties/intake/properties/settle_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err76];
              } else {
                vErrors.push(err76);
              }
              errors++;
            }
          }
        }
        if (data38.min_free_bytes !== undefined) {
          let data43 = data38.min_free_bytes;
          if (!(typeof data43 == 'number' && !(data43 % 1) && !isNaN(data43))) {
            const err77 = {
              instancePath: instancePath + '/intake/min_free_bytes',
              schemaPath: '#/properties/intake/properties/min_free_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err77];
            } else {
              vErrors.push(err77);
            }
            errors++;
          }
          if (typeof data43 == 'number') {
            if (data43 < 0 || isNaN(data43)) {
              const err78 = {
                instancePath: instancePath + '/intake/min_free_bytes',
                schemaPath: '#/properties/intake/properties/min_free_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err78];
              } else {
                vErrors.push(err78);
              }
              errors++;
            }
          }
        }
        if (data38.attachments !== undefined) {
          let data44 = data38.attachments;
          if (data44 && typeof data44 == 'object' && !Array.isArray(data44)) {
            for (const key9 in data44) {
              if (!(key9 === 'max_files' || key9 === 'max_bytes' || key9 === 'inline_bytes')) {
                const err79 = {
                  instancePath: instancePath + '/intake/attachments',
                  schemaPath: '#/properties/intake/properties/attachments/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key9 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err79];
                } else {
                  vErrors.push(err79);
                }
                errors++;
              }
            }
            if (data44.max_files !== undefined) {
              let data45 = data44.max_files;
              if (!(typeof data45 == 'number' && !(data45 % 1) && !isNaN(data45))) {
                const err80 = {
                  instancePath: instancePath + '/intake/attachments/max_files',
                  schemaPath: '#/properties/intake/properties/attachments/properties/max_files/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err80];
                } else {
                  vErrors.push(err80);
                }
                errors++;
              }
              if (typeof data45 == 'number') {
                if (data45 < 0 || isNaN(data45)) {
                  const err81 = {
                    instancePath: instancePath + '/intake/attachments/max_files',
                    schemaPath: '#/properties/intake/properties/attachments/properties/max_files/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err81];
                  } else {
                    vErrors.push(err81);
                  }
                  errors++;
                }
              }
            }
            if (data44.max_bytes !== undefined) {
              let data46 = data44.max_bytes;
              if (!(typeof data46 == 'number' && !(data46 % 1) && !isNaN(data46))) {
                const err82 = {
                  instancePath: instancePath + '/intake/attachments/max_bytes',
                  schemaPath: '#/properties/intake/properties/attachments/properties/max_bytes/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err82];
                } else {
                  vErrors.push(err82);
                }
                errors++;
              }
              if (typeof data46 == 'number') {
                if (data46 < 0 || isNaN(data46)) {
                  const err83 = {
                    instancePath: instancePath + '/intake/attachments/max_bytes',
                    schemaPath: '#/properties/intake/properties/attachments/properties/max_bytes/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err83];
                  } else {
                    vErrors.push(err83);
                  }
                  errors++;
                }
              }
            }
            if (data44.inline_bytes !== undefined) {
              let data47 = data44.inline_bytes;
              if (!(typeof data47 == 'number' && !(data47 % 1) && !isNaN(data47))) {
                const err84 = {
                  instancePath: instancePath + '/intake/attachments/inline_bytes',
                  schemaPath: '#/properties/intake/properties/attachments/properties/inline_bytes/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err84];
                } else {
                  vErrors.push(err84);
                }
                errors++;
              }
              if (typeof data47 == 'number') {
                if (data47 < 0 || isNaN(data47)) {
                  const err85 = {
                    instancePath: instancePath + '/intake/attachments/inline_bytes',
                    schemaPath: '#/properties/intake/properties/attachments/properties/inline_bytes/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err85];
                  } else {
                    vErrors.push(err85);
                  }
                  errors++;
                }
              }
            }
          } else {
            const err86 = {
              instancePath: instancePath + '/intake/attachments',
              schemaPath: '#/properties/intake/properties/attachments/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err86];
            } else {
              vErrors.push(err86);
            }
            errors++;
          }
        }
      } else {
        const err87 = {
          instancePath: instancePath + '/intake',
          schemaPath: '#/properties/intake/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err87];
        } else {
          vErrors.push(err87);
        }
        errors++;
      }
    }
    if (data.message !== undefined) {
      let data48 = data.message;
      if (data48 && typeof data48 == 'object' && !Array.isArray(data48)) {
        for (const key10 in data48) {
          if (!(key10 === 'schema' || key10 === 'max_depth' || key10 === 'format')) {
            const err88 = {
              instancePath: instancePath + '/message',
              schemaPath: '#/properties/message/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key10 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err88];
            } else {
              vErrors.push(err88);
            }
            errors++;
          }
        }
        if (data48.schema !== undefined) {
          let data49 = data48.schema;
          if (typeof data49 !== 'string' && data49 !== null) {
            const err89 = {
              instancePath: instancePath + '/message/schema',
              schemaPath: '#/properties/message/properties/schema/type',
              keyword: 'type',
              params: { type: schema11.properties.message.properties.schema.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err89];
            } else {
              vErrors.push(err89);
            }
            errors++;
          }
        }
        if (data48.max_depth !== undefined) {
          let data50 = data48.max_depth;
          if (!(typeof data50 == 'number' && !(data50 % 1) && !isNaN(data50))) {
            const err90 = {
              instancePath: instancePath + '/message/max_depth',
              schemaPath: '#/properties/message/properties/max_depth/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err90];
            } else {
              vErrors.push(err90);
            }
            errors++;
          }
          if (typeof data50 == 'number') {
            if (data50 > 1000 || isNaN(data50)) {
              const err91 = {
                instancePath: instancePath + '/message/max_depth',
                schemaPath: '#/properties/message/properties/max_depth/maximum',
                keyword: 'maximum',
                params: { comparison: '<=', limit: 1000 },
                message: 'must be <= 1000',
              };
              if (vErrors === null) {
                vErrors = [err91];
              } else {
                vErrors.push(err91);
              }
              errors++;
            }
            if (data50 < 4 || isNaN(data50)) {
              const err92 = {
                instancePath: instancePath + '/message/max_depth',
                schemaPath: '#/properties/message/properties/max_depth/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 4 },
                message: 'must be >= 4',
              };
              if (vErrors === null) {
                vErrors = [err92];
              } else {
                vErrors.push(err92);
              }
              errors++;
            }
          }
        }
        if (data48.format !== undefined) {
          let data51 = data48.format;
          if (!(data51 === 'sentient' || data51 === 'sacp')) {
            const err93 = {
              instancePath: instancePath + '/message/format',
              schemaPath: '#/properties/message/properties/format/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.message.properties.format.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err93];
            } else {
              vErrors.push(err93);
            }
            errors++;
          }
        }
      } else {
        const err94 = {
          instancePath: instancePath + '/message',
          schemaPath: '#/properties/message/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err94];
        } else {
          vErrors.push(err94);
        }
        errors++;
      }
    }
    if (data.prompt !== undefined) {
      let data52 = data.prompt;
      if (data52 && typeof data52 == 'object' && !Array.isArray(data52)) {
        for (const key11 in data52) {
          if (!(key11 === 'include')) {
            const err95 = {
              instancePath: instancePath + '/prompt',
              schemaPath: '#/properties/prompt/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key11 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err95];
            } else {
              vErrors.push(err95);
            }
            errors++;
          }
        }
        if (data52.include !== undefined) {
          let data53 = data52.include;
          if (Array.isArray(data53)) {
            const len0 = data53.length;
            for (let i0 = 0; i0 < len0; i0++) {
              let data54 = data53[i0];
              if (typeof data54 === 'string') {
                if (func3(data54) < 1) {
                  const err96 = {
                    instancePath: instancePath + '/prompt/include/' + i0,
                    schemaPath: '#/properties/prompt/properties/include/items/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err96];
                  } else {
                    vErrors.push(err96);
                  }
                  errors++;
                }
              } else {
                const err97 = {
                  instancePath: instancePath + '/prompt/include/' + i0,
                  schemaPath: '#/properties/prompt/properties/include/items/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err97];
                } else {
                  vErrors.push(err97);
                }
                errors++;
              }
            }
          } else {
            const err98 = {
              instancePath: instancePath + '/prompt/include',
              schemaPath: '#/properties/prompt/properties/include/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err98];
            } else {
              vErrors.push(err98);
            }
            errors++;
          }
        }
      } else {
        const err99 = {
          instancePath: instancePath + '/prompt',
          schemaPath: '#/properties/prompt/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err99];
        } else {
          vErrors.push(err99);
        }
        errors++;
      }
    }
    if (data.daemon !== undefined) {
      let data55 = data.daemon;
      if (data55 && typeof data55 == 'object' && !Array.isArray(data55)) {
        for (const key12 in data55) {
          if (!(key12 === 'shutdown_grace_ms' || key12 === 'fsync')) {
            const err100 = {
              instancePath: instancePath + '/daemon',
              schemaPath: '#/properties/daemon/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key12 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err100];
            } else {
              vErrors.push(err100);
            }
            errors++;
          }
        }
        if (data55.shutdown_grace_ms !== undefined) {
          let data56 = data55.shutdown_grace_ms;
          if (!(typeof data56 == 'number' && !(data56 % 1) && !isNaN(data56))) {
            const err101 = {
              instancePath: instancePath + '/daemon/shutdown_grace_ms',
              schemaPath: '#/properties/daemon/properties/shutdown_grace_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err101];
            } else {
              vErrors.push(err101);
            }
            errors++;
          }
          if (typeof data56 == 'number') {
            if (data56 < 0 || isNaN(data56)) {
              const err102 = {
                instancePath: instancePath + '/daemon/shutdown_grace_ms',
                schemaPath: '#/properties/daemon/properties/shutdown_grace_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err102];
              } else {
                vErrors.push(err102);
              }
              errors++;
            }
          }
        }
        if (data55.fsync !== undefined) {
          if (typeof data55.fsync !== 'boolean') {
            const err103 = {
              instancePath: instancePath + '/daemon/fsync',
              schemaPath: '#/properties/daemon/properties/fsync/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err103];
            } else {
              vErrors.push(err103);
            }
            errors++;
          }
        }
      } else {
        const err104 = {
          instancePath: instancePath + '/daemon',
          schemaPath: '#/properties/daemon/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err104];
        } else {
          vErrors.push(err104);
        }
        errors++;
      }
    }
    if (data.audit !== undefined) {
      let data58 = data.audit;
      if (data58 && typeof data58 == 'object' && !Array.isArray(data58)) {
        for (const key13 in data58) {
          if (!(
            key13 === 'signing_key' ||
            key13 === 'checkpoint_ms' ||
            key13 === 'witnesses' ||
            key13 === 'retention'
          )) {
            const err105 = {
              instancePath: instancePath + '/audit',
              schemaPath: '#/properties/audit/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key13 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err105];
            } else {
              vErrors.push(err105);
            }
            errors++;
          }
        }
        if (data58.signing_key !== undefined) {
          let data59 = data58.signing_key;
          if (typeof data59 !== 'string' && data59 !== null) {
            const err106 = {
              instancePath: instancePath + '/audit/signing_key',
              schemaPath: '#/properties/audit/properties/signing_key/type',
              keyword: 'type',
              params: { type: schema11.properties.audit.properties.signing_key.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err106];
            } else {
              vErrors.push(err106);
            }
            errors++;
          }
        }
        if (data58.checkpoint_ms !== undefined) {
          let data60 = data58.checkpoint_ms;
          if (!(typeof data60 == 'number' && !(data60 % 1) && !isNaN(data60))) {
            const err107 = {
              instancePath: instancePath + '/audit/checkpoint_ms',
              schemaPath: '#/properties/audit/properties/checkpoint_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err107];
            } else {
              vErrors.push(err107);
            }
            errors++;
          }
          if (typeof data60 == 'number') {
            if (data60 < 1 || isNaN(data60)) {
              const err108 = {
                instancePath: instancePath + '/audit/checkpoint_ms',
                schemaPath: '#/properties/audit/properties/checkpoint_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err108];
              } else {
                vErrors.push(err108);
              }
              errors++;
            }
          }
        }
        if (data58.witnesses !== undefined) {
          let data61 = data58.witnesses;
          if (Array.isArray(data61)) {
            const len1 = data61.length;
            for (let i1 = 0; i1 < len1; i1++) {
              let data62 = data61[i1];
              if (typeof data62 === 'string') {
                if (func3(data62) < 1) {
                  const err109 = {
                    instancePath: instancePath + '/audit/witnesses/' + i1,
                    schemaPath: '#/properties/audit/properties/witnesses/items/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err109];
                  } else {
                    vErrors.push(err109);
                  }
                  errors++;
                }
              } else {
                const err110 = {
                  instancePath: instancePath + '/audit/witnesses/' + i1,
                  schemaPath: '#/properties/audit/properties/witnesses/items/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err110];
                } else {
                  vErrors.push(err110);
                }
                errors++;
              }
            }
          } else {
            const err111 = {
              instancePath: instancePath + '/audit/witnesses',
              schemaPath: '#/properties/audit/properties/witnesses/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err111];
            } else {
              vErrors.push(err111);
            }
            errors++;
          }
        }
        if (data58.retention !== undefined) {
          let data63 = data58.retention;
          if (data63 && typeof data63 == 'object' && !Array.isArray(data63)) {
            for (const key14 in data63) {
              if (!(key14 === 'keep_days' || key14 === 'archive' || key14 === 'delete_after_days')) {
                const err112 = {
                  instancePath: instancePath + '/audit/retention',
                  schemaPath: '#/properties/audit/properties/retention/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key14 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err112];
                } else {
                  vErrors.push(err112);
                }
                errors++;
              }
            }
            if (data63.keep_days !== undefined) {
              let data64 = data63.keep_days;
              if (!(typeof data64 == 'number' && !(data64 % 1) && !isNaN(data64)) && data64 !== null) {
                const err113 = {
                  instancePath: instancePath + '/audit/retention/keep_days',
                  schemaPath: '#/properties/audit/properties/retention/properties/keep_days/type',
                  keyword: 'type',
                  params: { type: schema11.properties.audit.properties.retention.properties.keep_days.type },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err113];
                } else {
                  vErrors.push(err113);
                }
                errors++;
              }
              if (typeof data64 == 'number') {
                if (data64 < 1 || isNaN(data64)) {
                  const err114 = {
                    instancePath: instancePath + '/audit/retention/keep_days',
                    schemaPath: '#/properties/audit/properties/retention/properties/keep_days/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err114];
                  } else {
                    vErrors.push(err114);
                  }
                  errors++;
                }
              }
            }
            if (data63.archive !== undefined) {
              if (!(data63.archive === 'gzip')) {
                const err115 = {
                  instancePath: instancePath + '/audit/retention/archive',
                  schemaPath: '#/properties/audit/properties/retention/properties/archive/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.audit.properties.retention.properties.archive.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err115];
                } else {
                  vErrors.push(err115);
                }
                errors++;
              }
            }
            if (data63.delete_after_days !== undefined) {
              let data66 = data63.delete_after_days;
              if (!(typeof data66 == 'number' && !(data66 % 1) && !isNaN(data66)) && data66 !== null) {
                const err116 = {
                  instancePath: instancePath + '/audit/retention/delete_after_days',
                  schemaPath: '#/properties/audit/properties/retention/properties/delete_after_days/type',
                  keyword: 'type',
                  params: { type: schema11.properties.audit.properties.retention.properties.delete_after_days.type },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err116];
                } else {
                  vErrors.push(err116);
                }
                errors++;
              }
              if (typeof data66 == 'number') {
                if (data66 < 1 || isNaN(data66)) {
                  const err117 = {
                    instancePath: instancePath + '/audit/retention/delete_after_days',
                    schemaPath: '#/properties/audit/properties/retention/properties/delete_after_days/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err117];
                  } else {
                    vErrors.push(err117);
                  }
                  errors++;
                }
              }
            }
          } else {
            const err118 = {
              instancePath: instancePath + '/audit/retention',
              schemaPath: '#/properties/audit/properties/retention/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err118];
            } else {
              vErrors.push(err118);
            }
            errors++;
          }
        }
      } else {
        const err119 = {
          instancePath: instancePath + '/audit',
          schemaPath: '#/properties/audit/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err119];
        } else {
          vErrors.push(err119);
        }
        errors++;
      }
    }
    if (data.telemetry !== undefined) {
      let data67 = data.telemetry;
      if (data67 && typeof data67 == 'object' && !Array.isArray(data67)) {
        for (const key15 in data67) {
          if (!(key15 === 'otlp_endpoint' || key15 === 'capture_content' || key15 === 'service_name')) {
            const err120 = {
              instancePath: instancePath + '/telemetry',
              schemaPath: '#/properties/telemetry/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key15 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err120];
            } else {
              vErrors.push(err120);
            }
            errors++;
          }
        }
        if (data67.otlp_endpoint !== undefined) {
          let data68 = data67.otlp_endpoint;
          if (typeof data68 !== 'string' && data68 !== null) {
            const err121 = {
              instancePath: instancePath + '/telemetry/otlp_endpoint',
              schemaPath: '#/properties/telemetry/properties/otlp_endpoint/type',
              keyword: 'type',
              params: { type: schema11.properties.telemetry.properties.otlp_endpoint.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err121];
            } else {
              vErrors.push(err121);
            }
            errors++;
          }
          if (typeof data68 === 'string') {
            if (!pattern1.test(data68)) {
              const err122 = {
                instancePath: instancePath + '/telemetry/otlp_endpoint',
                schemaPath: '#/properties/telemetry/properties/otlp_endpoint/pattern',
                keyword: 'pattern',
                params: { pattern: '^https?://' },
                message: 'must match pattern "' + '^https?://' + '"',
              };
              if (vErrors === null) {
                vErrors = [err122];
              } else {
                vErrors.push(err122);
              }
              errors++;
            }
          }
        }
        if (data67.capture_content !== undefined) {
          if (typeof data67.capture_content !== 'boolean') {
            const err123 = {
              instancePath: instancePath + '/telemetry/capture_content',
              schemaPath: '#/properties/telemetry/properties/capture_content/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err123];
            } else {
              vErrors.push(err123);
            }
            errors++;
          }
        }
        if (data67.service_name !== undefined) {
          let data70 = data67.service_name;
          if (typeof data70 === 'string') {
            if (func3(data70) < 1) {
              const err124 = {
                instancePath: instancePath + '/telemetry/service_name',
                schemaPath: '#/properties/telemetry/properties/service_name/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err124];
              } else {
                vErrors.push(err124);
              }
              errors++;
            }
          } else {
            const err125 = {
              instancePath: instancePath + '/telemetry/service_name',
              schemaPath: '#/properties/telemetry/properties/service_name/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err125];
            } else {
              vErrors.push(err125);
            }
            errors++;
          }
        }
      } else {
        const err126 = {
          instancePath: instancePath + '/telemetry',
          schemaPath: '#/properties/telemetry/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err126];
        } else {
          vErrors.push(err126);
        }
        errors++;
      }
    }
    if (data.http !== undefined) {
      let data71 = data.http;
      if (data71 && typeof data71 == 'object' && !Array.isArray(data71)) {
        for (const key16 in data71) {
          if (!func2.call(schema11.properties.http.properties, key16)) {
            const err127 = {
              instancePath: instancePath + '/http',
              schemaPath: '#/properties/http/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key16 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err127];
            } else {
              vErrors.push(err127);
            }
            errors++;
          }
        }
        if (data71.listen !== undefined) {
          let data72 = data71.listen;
          if (typeof data72 !== 'string' && data72 !== null) {
            const err128 = {
              instancePath: instancePath + '/http/listen',
              schemaPath: '#/properties/http/properties/listen/type',
              keyword: 'type',
              params: { type: schema11.properties.http.properties.listen.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err128];
            } else {
              vErrors.push(err128);
            }
            errors++;
          }
          if (typeof data72 === 'string') {
            if (!pattern2.test(data72)) {
              const err129 = {
                instancePath: instancePath + '/http/listen',
                schemaPath: '#/properties/http/properties/listen/pattern',
                keyword: 'pattern',
                params: { pattern: '^\\[?[^\\s]+\\]?:[0-9]{1,5}$' },
                message: 'must match pattern "' + '^\\[?[^\\s]+\\]?:[0-9]{1,5}$' + '"',
              };
              if (vErrors === null) {
                vErrors = [err129];
              } else {
                vErrors.push(err129);
              }
              errors++;
            }
          }
        }
        if (data71.tokens !== undefined) {
          let data73 = data71.tokens;
          if (Array.isArray(data73)) {
            const len2 = data73.length;
            for (let i2 = 0; i2 < len2; i2++) {
              let data74 = data73[i2];
              if (data74 && typeof data74 == 'object' && !Array.isArray(data74)) {
                if (data74.user === undefined) {
                  const err130 = {
                    instancePath: instancePath + '/http/tokens/' + i2,
                    schemaPath: '#/properties/http/properties/tokens/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'user' },
                    message: "must have required property '" + 'user' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err130];
                  } else {
                    vErrors.push(err130);
                  }
                  errors++;
                }
                if (data74.sha256 === undefined) {
                  const err131 = {
                    instancePath: instancePath + '/http/tokens/' + i2,
                    schemaPath: '#/properties/http/properties/tokens/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'sha256' },
                    message: "must have required property '" + 'sha256' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err131];
                  } else {
                    vErrors.push(err131);
                  }
                  errors++;
                }
                for (const key17 in data74) {
                  if (!(key17 === 'user' || key17 === 'sha256' || key17 === 'role')) {
                    const err132 = {
                      instancePath: instancePath + '/http/tokens/' + i2,
                      schemaPath: '#/properties/http/properties/tokens/items/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key17 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err132];
                    } else {
                      vErrors.push(err132);
                    }
                    errors++;
                  }
                }
                if (data74.user !== undefined) {
                  let data75 = data74.user;
                  if (typeof data75 === 'string') {
                    if (!pattern0.test(data75)) {
                      const err133 = {
                        instancePath: instancePath + '/http/tokens/' + i2 + '/user',
                        schemaPath: '#/properties/http/properties/tokens/items/properties/user/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^[A-Za-z0-9._@-]{1,128}$' },
                        message: 'must match pattern "' + '^[A-Za-z0-9._@-]{1,128}$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err133];
                      } else {
                        vErrors.push(err133);
                      }
                      errors++;
                    }
                  } else {
                    const err134 = {
                      instancePath: instancePath + '/http/tokens/' + i2 + '/user',
                      schemaPath: '#/properties/http/properties/tokens/items/properties/user/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err134];
                    } else {
                      vErrors.push(err134);
                    }
                    errors++;
                  }
                }
                if (data74.sha256 !== undefined) {
                  let data76 = data74.sha256;
                  if (typeof data76 === 'string') {
                    if (!pattern4.test(data76)) {
                      const err135 = {
                        instancePath: instancePath + '/http/tokens/' + i2 + '/sha256',
                        schemaPath: '#/properties/http/properties/tokens/items/properties/sha256/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^[0-9a-fA-F]{64}$' },
                        message: 'must match pattern "' + '^[0-9a-fA-F]{64}$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err135];
                      } else {
                        vErrors.push(err135);
                      }
                      errors++;
                    }
                  } else {
                    const err136 = {
                      instancePath: instancePath + '/http/tokens/' + i2 + '/sha256',
                      schemaPath: '#/properties/http/properties/tokens/items/properties/sha256/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err136];
                    } else {
                      vErrors.push(err136);
                    }
                    errors++;
                  }
                }
                if (data74.role !== undefined) {
                  let data77 = data74.role;
                  if (!(data77 === 'operator' || data77 === 'auditor' || data77 === 'admin')) {
                    const err137 = {
                      instancePath: instancePath + '/http/tokens/' + i2 + '/role',
                      schemaPath: '#/properties/http/properties/tokens/items/properties/role/enum',
                      keyword: 'enum',
                      params: { allowedValues: schema11.properties.http.properties.tokens.items.properties.role.enum },
                      message: 'must be equal to one of the allowed values',
                    };
                    if (vErrors === null) {
                      vErrors = [err137];
                    } else {
                      vErrors.push(err137);
                    }
                    errors++;
                  }
                }
              } else {
                const err138 = {
                  instancePath: instancePath + '/http/tokens/' + i2,
                  schemaPath: '#/properties/http/properties/tokens/items/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err138];
                } else {
                  vErrors.push(err138);
                }
                errors++;
              }
            }
          } else {
            const err139 = {
              instancePath: instancePath + '/http/tokens',
              schemaPath: '#/properties/http/properties/tokens/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err139];
            } else {
              vErrors.push(err139);
            }
            errors++;
          }
        }
        if (data71.max_body_bytes !== undefined) {
          let data78 = data71.max_body_bytes;
          if (!(typeof data78 == 'number' && !(data78 % 1) && !isNaN(data78))) {
            const err140 = {
              instancePath: instancePath + '/http/max_body_bytes',
              schemaPath: '#/properties/http/properties/max_body_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err140];
            } else {
              vErrors.push(err140);
            }
            errors++;
          }
          if (typeof data78 == 'number') {
            if (data78 < 1 || isNaN(data78)) {
              const err141 = {
                instancePath: instancePath + '/http/max_body_bytes',
                schemaPath: '#/properties/http/properties/max_body_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err141];
              } else {
                vErrors.push(err141);
              }
              errors++;
            }
          }
        }
        if (data71.heartbeat_ms !== undefined) {
          let data79 = data71.heartbeat_ms;
          if (!(typeof data79 == 'number' && !(data79 % 1) && !isNaN(data79))) {
            const err142 = {
              instancePath: instancePath + '/http/heartbeat_ms',
              schemaPath: '#/properties/http/properties/heartbeat_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err142];
            } else {
              vErrors.push(err142);
            }
            errors++;
          }
          if (typeof data79 == 'number') {
            if (data79 > 15000 || isNaN(data79)) {
              const err143 = {
                instancePath: instancePath + '/http/heartbeat_ms',
                schemaPath: '#/properties/http/properties/heartbeat_ms/maximum',
                keyword: 'maximum',
                params: { comparison: '<=', limit: 15000 },
                message: 'must be <= 15000',
              };
              if (vErrors === null) {
                vErrors = [err143];
              } else {
                vErrors.push(err143);
              }
              errors++;
            }
            if (data79 < 100 || isNaN(data79)) {
              const err144 = {
                instancePath: instancePath + '/http/heartbeat_ms',
                schemaPath: '#/properties/http/properties/heartbeat_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 100 },
                message: 'must be >= 100',
              };
              if (vErrors === null) {
                vErrors = [err144];
              } else {
                vErrors.push(err144);
              }
              errors++;
            }
          }
        }
        if (data71.request_timeout_ms !== undefined) {
          let data80 = data71.request_timeout_ms;
          if (!(typeof data80 == 'number' && !(data80 % 1) && !isNaN(data80))) {
            const err145 = {
              instancePath: instancePath + '/http/request_timeout_ms',
              schemaPath: '#/properties/http/properties/request_timeout_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err145];
            } else {
              vErrors.push(err145);
            }
            errors++;
          }
          if (typeof data80 == 'number') {
            if (data80 < 1 || isNaN(data80)) {
              const err146 = {
                instancePath: instancePath + '/http/request_timeout_ms',
                schemaPath: '#/properties/http/properties/request_timeout_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err146];
              } else {
                vErrors.push(err146);
              }
              errors++;
            }
          }
        }
        if (data71.rate_limit !== undefined) {
          let data81 = data71.rate_limit;
          if (!(data81 && typeof data81 == 'object' && !Array.isArray(data81)) && data81 !== null) {
            const err147 = {
              instancePath: instancePath + '/http/rate_limit',
              schemaPath: '#/properties/http/properties/rate_limit/type',
              keyword: 'type',
              params: { type: schema11.properties.http.properties.rate_limit.type },
              message: 'must be object,null',
            };
            if (vErrors === null) {
              vErrors = [err147];
            } else {
              vErrors.push(err147);
            }
            errors++;
          }
          if (data81 && typeof data81 == 'object' && !Array.isArray(data81)) {
            for (const key18 in data81) {
              if (!(key18 === 'per_user_per_minute' || key18 === 'auth_failures_per_minute')) {
                const err148 = {
                  instancePath: instancePath + '/http/rate_limit',
                  schemaPath: '#/properties/http/properties/rate_limit/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key18 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err148];
                } else {
                  vErrors.push(err148);
                }
                errors++;
              }
            }
            if (data81.per_user_per_minute !== undefined) {
              let data82 = data81.per_user_per_minute;
              if (!(typeof data82 == 'number' && !(data82 % 1) && !isNaN(data82)) && data82 !== null) {
                const err149 = {
                  instancePath: instancePath + '/http/rate_limit/per_user_per_minute',
                  schemaPath: '#/properties/http/properties/rate_limit/properties/per_user_per_minute/type',
                  keyword: 'type',
                  params: { type: schema11.properties.http.properties.rate_limit.properties.per_user_per_minute.type },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err149];
                } else {
                  vErrors.push(err149);
                }
                errors++;
              }
              if (typeof data82 == 'number') {
                if (data82 < 1 || isNaN(data82)) {
                  const err150 = {
                    instancePath: instancePath + '/http/rate_limit/per_user_per_minute',
                    schemaPath: '#/properties/http/properties/rate_limit/properties/per_user_per_minute/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err150];
                  } else {
                    vErrors.push(err150);
                  }
                  errors++;
                }
              }
            }
            if (data81.auth_failures_per_minute !== undefined) {
              let data83 = data81.auth_failures_per_minute;
              if (!(typeof data83 == 'number' && !(data83 % 1) && !isNaN(data83)) && data83 !== null) {
                const err151 = {
                  instancePath: instancePath + '/http/rate_limit/auth_failures_per_minute',
                  schemaPath: '#/properties/http/properties/rate_limit/properties/auth_failures_per_minute/type',
                  keyword: 'type',
                  params: {
                    type: schema11.properties.http.properties.rate_limit.properties.auth_failures_per_minute.type,
                  },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err151];
                } else {
                  vErrors.push(err151);
                }
                errors++;
              }
              if (typeof data83 == 'number') {
                if (data83 < 1 || isNaN(data83)) {
                  const err152 = {
                    instancePath: instancePath + '/http/rate_limit/auth_failures_per_minute',
                    schemaPath: '#/properties/http/properties/rate_limit/properties/auth_failures_per_minute/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err152];
                  } else {
                    vErrors.push(err152);
                  }
                  errors++;
                }
              }
            }
          }
        }
        if (data71.max_queued !== undefined) {
          let data84 = data71.max_queued;
          if (!(typeof data84 == 'number' && !(data84 % 1) && !isNaN(data84)) && data84 !== null) {
            const err153 = {
              instancePath: instancePath + '/http/max_queued',
              schemaPath: '#/properties/http/properties/max_queued/type',
              keyword: 'type',
              params: { type: schema11.properties.http.properties.max_queued.type },
              message: 'must be integer,null',
            };
            if (vErrors === null) {
              vErrors = [err153];
            } else {
              vErrors.push(err153);
            }
            errors++;
          }
          if (typeof data84 == 'number') {
            if (data84 < 1 || isNaN(data84)) {
              const err154 = {
                instancePath: instancePath + '/http/max_queued',
                schemaPath: '#/properties/http/properties/max_queued/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err154];
              } else {
                vErrors.push(err154);
              }
              errors++;
            }
          }
        }
        if (data71.cors !== undefined) {
          let data85 = data71.cors;
          if (data85 && typeof data85 == 'object' && !Array.isArray(data85)) {
            for (const key19 in data85) {
              if (!(key19 === 'origins')) {
                const err155 = {
                  instancePath: instancePath + '/http/cors',
                  schemaPath: '#/properties/http/properties/cors/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key19 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err155];
                } else {
                  vErrors.push(err155);
                }
                errors++;
              }
            }
            if (data85.origins !== undefined) {
              let data86 = data85.origins;
              if (Array.isArray(data86)) {
                const len3 = data86.length;
                for (let i3 = 0; i3 < len3; i3++) {
                  let data87 = data86[i3];
                  if (typeof data87 === 'string') {
                    if (!pattern5.test(data87)) {
                      const err156 = {
                        instancePath: instancePath + '/http/cors/origins/' + i3,
                        schemaPath: '#/properties/http/properties/cors/properties/origins/items/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^https?://[^/\\s]+$' },
                        message: 'must match pattern "' + '^https?://[^/\\s]+$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err156];
                      } else {
                        vErrors.push(err156);
                      }
                      errors++;
                    }
                  } else {
                    const err157 = {
                      instancePath: instancePath + '/http/cors/origins/' + i3,
                      schemaPath: '#/properties/http/properties/cors/properties/origins/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err157];
                    } else {
                      vErrors.push(err157);
                    }
                    errors++;
                  }
                }
                let i4 = data86.length;
                let j0;
                if (i4 > 1) {
                  const indices0 = {};
                  for (; i4--;) {
                    let item0 = data86[i4];
                    if (typeof item0 !== 'string') {
                      continue;
                    }
                    if (typeof indices0[item0] == 'number') {
                      j0 = indices0[item0];
                      const err158 = {
                        instancePath: instancePath + '/http/cors/origins',
                        schemaPath: '#/properties/http/properties/cors/properties/origins/uniqueItems',
                        keyword: 'uniqueItems',
                        params: { i: i4, j: j0 },
                        message: 'must NOT have duplicate items (items ## ' + j0 + ' and ' + i4 + ' are identical)',
                      };
                      if (vErrors === null) {
                        vErrors = [err158];
                      } else {
                        vErrors.push(err158);
                      }
                      errors++;
                      break;
                    }
                    indices0[item0] = i4;
                  }
                }
              } else {
                const err159 = {
                  instancePath: instancePath + '/http/cors/origins',
                  schemaPath: '#/properties/http/properties/cors/properties/origins/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err159];
                } else {
                  vErrors.push(err159);
                }
                errors++;
              }
            }
          } else {
            const err160 = {
              instancePath: instancePath + '/http/cors',
              schemaPath: '#/properties/http/properties/cors/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err160];
            } else {
              vErrors.push(err160);
            }
            errors++;
          }
        }
        if (data71.auth !== undefined) {
          let data88 = data71.auth;
          if (data88 && typeof data88 == 'object' && !Array.isArray(data88)) {
            for (const key20 in data88) {
              if (!(key20 === 'jwt')) {
                const err161 = {
                  instancePath: instancePath + '/http/auth',
                  schemaPath: '#/properties/http/properties/auth/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key20 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err161];
                } else {
                  vErrors.push(err161);
                }
                errors++;
              }
            }
            if (data88.jwt !== undefined) {
              let data89 = data88.jwt;
              if (!(data89 && typeof data89 == 'object' && !Array.isArray(data89)) && data89 !== null) {
                const err162 = {
                  instancePath: instancePath + '/http/auth/jwt',
                  schemaPath: '#/properties/http/properties/auth/properties/jwt/type',
                  keyword: 'type',
                  params: { type: schema11.properties.http.properties.auth.properties.jwt.type },
                  message: 'must be object,null',
                };
                if (vErrors === null) {
                  vErrors = [err162];
                } else {
                  vErrors.push(err162);
                }
                errors++;
              }
              if (data89 && typeof data89 == 'object' && !Array.isArray(data89)) {
                if (data89.issuer === undefined) {
                  const err163 = {
                    instancePath: instancePath + '/http/auth/jwt',
                    schemaPath: '#/properties/http/properties/auth/properties/jwt/required',
                    keyword: 'required',
                    params: { missingProperty: 'issuer' },
                    message: "must have required property '" + 'issuer' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err163];
                  } else {
                    vErrors.push(err163);
                  }
                  errors++;
                }
                if (data89.audience === undefined) {
                  const err164 = {
                    instancePath: instancePath + '/http/auth/jwt',
                    schemaPath: '#/properties/http/properties/auth/properties/jwt/required',
                    keyword: 'required',
                    params: { missingProperty: 'audience' },
                    message: "must have required property '" + 'audience' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err164];
                  } else {
                    vErrors.push(err164);
                  }
                  errors++;
                }
                for (const key21 in data89) {
                  if (!(
                    key21 === 'issuer' ||
                    key21 === 'audience' ||
                    key21 === 'jwks_url' ||
                    key21 === 'public_key_file' ||
                    key21 === 'user_claim' ||
                    key21 === 'role_claim' ||
                    key21 === 'algorithms'
                  )) {
                    const err165 = {
                      instancePath: instancePath + '/http/auth/jwt',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key21 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err165];
                    } else {
                      vErrors.push(err165);
                    }
                    errors++;
                  }
                }
                if (data89.issuer !== undefined) {
                  let data90 = data89.issuer;
                  if (typeof data90 === 'string') {
                    if (func3(data90) < 1) {
                      const err166 = {
                        instancePath: instancePath + '/http/auth/jwt/issuer',
                        schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/issuer/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err166];
                      } else {
                        vErrors.push(err166);
                      }
                      errors++;
                    }
                  } else {
                    const err167 = {
                      instancePath: instancePath + '/http/auth/jwt/issuer',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/issuer/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err167];
                    } else {
                      vErrors.push(err167);
                    }
                    errors++;
                  }
                }
                if (data89.audience !== undefined) {
                  let data91 = data89.audience;
                  const _errs197 = errors;
                  let valid31 = false;
                  const _errs198 = errors;
                  if (typeof data91 === 'string') {
                    if (func3(data91) < 1) {
                      const err168 = {
                        instancePath: instancePath + '/http/auth/jwt/audience',
                        schemaPath:
                          '#/properties/http/properties/auth/properties/jwt/properties/audience/anyOf/0/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err168];
                      } else {
                        vErrors.push(err168);
                      }
                      errors++;
                    }
                  } else {
                    const err169 = {
                      instancePath: instancePath + '/http/auth/jwt/audience',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/audience/anyOf/0/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err169];
                    } else {
                      vErrors.push(err169);
                    }
                    errors++;
                  }
                  var _valid0 = _errs198 === errors;
                  valid31 = valid31 || _valid0;
                  if (!valid31) {
                    const _errs200 = errors;
                    if (Array.isArray(data91)) {
                      if (data91.length < 1) {
                        const err170 = {
                          instancePath: instancePath + '/http/auth/jwt/audience',
                          schemaPath:
                            '#/properties/http/properties/auth/properties/jwt/properties/audience/anyOf/1/minItems',
                          keyword: 'minItems',
                          params: { limit: 1 },
                          message: 'must NOT have fewer than 1 items',
                        };
                        if (vErrors === null) {
                          vErrors = [err170];
                        } else {
                          vErrors.push(err170);
                        }
                        errors++;
                      }
                      const len4 = data91.length;
                      for (let i5 = 0; i5 < len4; i5++) {
                        let data92 = data91[i5];
                        if (typeof data92 === 'string') {
                          if (func3(data92) < 1) {
                            const err171 = {
                              instancePath: instancePath + '/http/auth/jwt/audience/' + i5,
                              schemaPath:
                                '#/properties/http/properties/auth/properties/jwt/properties/audience/anyOf/1/items/minLength',
                              keyword: 'minLength',
                              params: { limit: 1 },
                              message: 'must NOT have fewer than 1 characters',
                            };
                            if (vErrors === null) {
                              vErrors = [err171];
                            } else {
                              vErrors.push(err171);
                            }
                            errors++;
                          }
                        } else {
                          const err172 = {
                            instancePath: instancePath + '/http/auth/jwt/audience/' + i5,
                            schemaPath:
                              '#/properties/http/properties/auth/properties/jwt/properties/audience/anyOf/1/items/type',
                            keyword: 'type',
                            params: { type: 'string' },
                            message: 'must be string',
                          };
                          if (vErrors === null) {
                            vErrors = [err172];
                          } else {
                            vErrors.push(err172);
                          }
                          errors++;
                        }
                      }
                    } else {
                      const err173 = {
                        instancePath: instancePath + '/http/auth/jwt/audience',
                        schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/audience/anyOf/1/type',
                        keyword: 'type',
                        params: { type: 'array' },
                        message: 'must be array',
                      };
                      if (vErrors === null) {
                        vErrors = [err173];
                      } else {
                        vErrors.push(err173);
                      }
                      errors++;
                    }
                    var _valid0 = _errs200 === errors;
                    valid31 = valid31 || _valid0;
                  }
                  if (!valid31) {
                    const err174 = {
                      instancePath: instancePath + '/http/auth/jwt/audience',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/audience/anyOf',
                      keyword: 'anyOf',
                      params: {},
                      message: 'must match a schema in anyOf',
                    };
                    if (vErrors === null) {
                      vErrors = [err174];
                    } else {
                      vErrors.push(err174);
                    }
                    errors++;
                  } else {
                    errors = _errs197;
                    if (vErrors !== null) {
                      if (_errs197) {
                        vErrors.length = _errs197;
                      } else {
                        vErrors = null;
                      }
                    }
                  }
                }
                if (data89.jwks_url !== undefined) {
                  let data93 = data89.jwks_url;
                  if (typeof data93 === 'string') {
                    if (!pattern6.test(data93)) {
                      const err175 = {
                        instancePath: instancePath + '/http/auth/jwt/jwks_url',
                        schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/jwks_url/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^https?://[^\\s]+$' },
                        message: 'must match pattern "' + '^https?://[^\\s]+$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err175];
                      } else {
                        vErrors.push(err175);
                      }
                      errors++;
                    }
                  } else {
                    const err176 = {
                      instancePath: instancePath + '/http/auth/jwt/jwks_url',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/jwks_url/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err176];
                    } else {
                      vErrors.push(err176);
                    }
                    errors++;
                  }
                }
                if (data89.public_key_file !== undefined) {
                  let data94 = data89.public_key_file;
                  if (typeof data94 === 'string') {
                    if (func3(data94) < 1) {
                      const err177 = {
                        instancePath: instancePath + '/http/auth/jwt/public_key_file',
                        schemaPath:
                          '#/properties/http/properties/auth/properties/jwt/properties/public_key_file/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err177];
                      } else {
                        vErrors.push(err177);
                      }
                      errors++;
                    }
                  } else {
                    const err178 = {
                      instancePath: instancePath + '/http/auth/jwt/public_key_file',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/public_key_file/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err178];
                    } else {
                      vErrors.push(err178);
                    }
                    errors++;
                  }
                }
                if (data89.user_claim !== undefined) {
                  let data95 = data89.user_claim;
                  if (typeof data95 === 'string') {
                    if (func3(data95) < 1) {
                      const err179 = {
                        instancePath: instancePath + '/http/auth/jwt/user_claim',
                        schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/user_claim/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err179];
                      } else {
                        vErrors.push(err179);
                      }
                      errors++;
                    }
                  } else {
                    const err180 = {
                      instancePath: instancePath + '/http/auth/jwt/user_claim',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/user_claim/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err180];
                    } else {
                      vErrors.push(err180);
                    }
                    errors++;
                  }
                }
                if (data89.role_claim !== undefined) {
                  let data96 = data89.role_claim;
                  if (typeof data96 === 'string') {
                    if (func3(data96) < 1) {
                      const err181 = {
                        instancePath: instancePath + '/http/auth/jwt/role_claim',
                        schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/role_claim/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err181];
                      } else {
                        vErrors.push(err181);
                      }
                      errors++;
                    }
                  } else {
                    const err182 = {
                      instancePath: instancePath + '/http/auth/jwt/role_claim',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/role_claim/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err182];
                    } else {
                      vErrors.push(err182);
                    }
                    errors++;
                  }
                }
                if (data89.algorithms !== undefined) {
                  let data97 = data89.algorithms;
                  if (Array.isArray(data97)) {
                    if (data97.length < 1) {
                      const err183 = {
                        instancePath: instancePath + '/http/auth/jwt/algorithms',
                        schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/algorithms/minItems',
                        keyword: 'minItems',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 items',
                      };
                      if (vErrors === null) {
                        vErrors = [err183];
                      } else {
                        vErrors.push(err183);
                      }
                      errors++;
                    }
                    const len5 = data97.length;
                    for (let i6 = 0; i6 < len5; i6++) {
                      let data98 = data97[i6];
                      if (!(
                        data98 === 'RS256' ||
                        data98 === 'RS384' ||
                        data98 === 'RS512' ||
                        data98 === 'PS256' ||
                        data98 === 'PS384' ||
                        data98 === 'PS512' ||
                        data98 === 'ES256' ||
                        data98 === 'ES384' ||
                        data98 === 'ES512' ||
                        data98 === 'EdDSA' ||
                        data98 === 'Ed25519'
                      )) {
                        const err184 = {
                          instancePath: instancePath + '/http/auth/jwt/algorithms/' + i6,
                          schemaPath:
                            '#/properties/http/properties/auth/properties/jwt/properties/algorithms/items/enum',
                          keyword: 'enum',
                          params: {
                            allowedValues:
                              schema11.properties.http.properties.auth.properties.jwt.properties.algorithms.items.enum,
                          },
                          message: 'must be equal to one of the allowed values',
                        };
                        if (vErrors === null) {
                          vErrors = [err184];
                        } else {
                          vErrors.push(err184);
                        }
                        errors++;
                      }
                    }
                    let i7 = data97.length;
                    let j1;
                    if (i7 > 1) {
                      outer0: for (; i7--;) {
                        for (j1 = i7; j1--;) {
                          if (func0(data97[i7], data97[j1])) {
                            const err185 = {
                              instancePath: instancePath + '/http/auth/jwt/algorithms',
                              schemaPath:
                                '#/properties/http/properties/auth/properties/jwt/properties/algorithms/uniqueItems',
                              keyword: 'uniqueItems',
                              params: { i: i7, j: j1 },
                              message:
                                'must NOT have duplicate items (items ## ' + j1 + ' and ' + i7 + ' are identical)',
                            };
                            if (vErrors === null) {
                              vErrors = [err185];
                            } else {
                              vErrors.push(err185);
                            }
                            errors++;
                            break outer0;
                          }
                        }
                      }
                    }
                  } else {
                    const err186 = {
                      instancePath: instancePath + '/http/auth/jwt/algorithms',
                      schemaPath: '#/properties/http/properties/auth/properties/jwt/properties/algorithms/type',
                      keyword: 'type',
                      params: { type: 'array' },
                      message: 'must be array',
                    };
                    if (vErrors === null) {
                      vErrors = [err186];
                    } else {
                      vErrors.push(err186);
                    }
                    errors++;
                  }
                }
              }
            }
          } else {
            const err187 = {
              instancePath: instancePath + '/http/auth',
              schemaPath: '#/properties/http/properties/auth/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err187];
            } else {
              vErrors.push(err187);
            }
            errors++;
          }
        }
      } else {
        const err188 = {
          instancePath: instancePath + '/http',
          schemaPath: '#/properties/http/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err188];
        } else {
          vErrors.push(err188);
        }
        errors++;
      }
    }
    if (data.chat !== undefined) {
      let data99 = data.chat;
      if (data99 && typeof data99 == 'object' && !Array.isArray(data99)) {
        for (const key22 in data99) {
          if (!(
            key22 === 'contexts' ||
            key22 === 'max_context_bytes' ||
            key22 === 'history_turns' ||
            key22 === 'progress'
          )) {
            const err189 = {
              instancePath: instancePath + '/chat',
              schemaPath: '#/properties/chat/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key22 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err189];
            } else {
              vErrors.push(err189);
            }
            errors++;
          }
        }
        if (data99.contexts !== undefined) {
          let data100 = data99.contexts;
          if (data100 && typeof data100 == 'object' && !Array.isArray(data100)) {
            for (const key23 in data100) {
              const _errs220 = errors;
              if (typeof key23 === 'string') {
                if (!pattern7.test(key23)) {
                  const err190 = {
                    instancePath: instancePath + '/chat/contexts',
                    schemaPath: '#/properties/chat/properties/contexts/propertyNames/pattern',
                    keyword: 'pattern',
                    params: { pattern: '^[a-z][a-z0-9_-]{0,63}$' },
                    message: 'must match pattern "' + '^[a-z][a-z0-9_-]{0,63}$' + '"',
                    propertyName: key23,
                  };
                  if (vErrors === null) {
                    vErrors = [err190];
                  } else {
                    vErrors.push(err190);
                  }
                  errors++;
                }
              }
              var valid38 = _errs220 === errors;
              if (!valid38) {
                const err191 = {
                  instancePath: instancePath + '/chat/contexts',
                  schemaPath: '#/properties/chat/properties/contexts/propertyNames',
                  keyword: 'propertyNames',
                  params: { propertyName: key23 },
                  message: 'property name must be valid',
                };
                if (vErrors === null) {
                  vErrors = [err191];
                } else {
                  vErrors.push(err191);
                }
                errors++;
              }
            }
            for (const key24 in data100) {
              let data101 = data100[key24];
              if (data101 && typeof data101 == 'object' && !Array.isArray(data101)) {
                for (const key25 in data101) {
                  if (!(key25 === 'agent' || key25 === 'context_file')) {
                    const err192 = {
                      instancePath: instancePath + '/chat/contexts/' + key24.replace(/~/g, '~0').replace(/\//g, '~1'),
                      schemaPath: '#/properties/chat/properties/contexts/additionalProperties/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key25 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err192];
                    } else {
                      vErrors.push(err192);
                    }
                    errors++;
                  }
                }
                if (data101.agent !== undefined) {
                  let data102 = data101.agent;
                  if (typeof data102 !== 'string' && data102 !== null) {
                    const err193 = {
                      instancePath:
                        instancePath + '/chat/contexts/' + key24.replace(/~/g, '~0').replace(/\//g, '~1') + '/agent',
                      schemaPath: '#/properties/chat/properties/contexts/additionalProperties/properties/agent/type',
                      keyword: 'type',
                      params: {
                        type: schema11.properties.chat.properties.contexts.additionalProperties.properties.agent.type,
                      },
                      message: 'must be string,null',
                    };
                    if (vErrors === null) {
                      vErrors = [err193];
                    } else {
                      vErrors.push(err193);
                    }
                    errors++;
                  }
                  if (typeof data102 === 'string') {
                    if (func3(data102) < 1) {
                      const err194 = {
                        instancePath:
                          instancePath + '/chat/contexts/' + key24.replace(/~/g, '~0').replace(/\//g, '~1') + '/agent',
                        schemaPath:
                          '#/properties/chat/properties/contexts/additionalProperties/properties/agent/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err194];
                      } else {
                        vErrors.push(err194);
                      }
                      errors++;
                    }
                  }
                }
                if (data101.context_file !== undefined) {
                  let data103 = data101.context_file;
                  if (typeof data103 !== 'string' && data103 !== null) {
                    const err195 = {
                      instancePath:
                        instancePath +
                        '/chat/contexts/' +
                        key24.replace(/~/g, '~0').replace(/\//g, '~1') +
                        '/context_file',
                      schemaPath:
                        '#/properties/chat/properties/contexts/additionalProperties/properties/context_file/type',
                      keyword: 'type',
                      params: {
                        type: schema11.properties.chat.properties.contexts.additionalProperties.properties.context_file
                          .type,
                      },
                      message: 'must be string,null',
                    };
                    if (vErrors === null) {
                      vErrors = [err195];
                    } else {
                      vErrors.push(err195);
                    }
                    errors++;
                  }
                  if (typeof data103 === 'string') {
                    if (func3(data103) < 1) {
                      const err196 = {
                        instancePath:
                          instancePath +
                          '/chat/contexts/' +
                          key24.replace(/~/g, '~0').replace(/\//g, '~1') +
                          '/context_file',
                        schemaPath:
                          '#/properties/chat/properties/contexts/additionalProperties/properties/context_file/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err196];
                      } else {
                        vErrors.push(err196);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err197 = {
                  instancePath: instancePath + '/chat/contexts/' + key24.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/chat/properties/contexts/additionalProperties/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err197];
                } else {
                  vErrors.push(err197);
                }
                errors++;
              }
            }
          } else {
            const err198 = {
              instancePath: instancePath + '/chat/contexts',
              schemaPath: '#/properties/chat/properties/contexts/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err198];
            } else {
              vErrors.push(err198);
            }
            errors++;
          }
        }
        if (data99.max_context_bytes !== undefined) {
          let data104 = data99.max_context_bytes;
          if (!(typeof data104 == 'number' && !(data104 % 1) && !isNaN(data104))) {
            const err199 = {
              instancePath: instancePath + '/chat/max_context_bytes',
              schemaPath: '#/properties/chat/properties/max_context_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err199];
            } else {
              vErrors.push(err199);
            }
            errors++;
          }
          if (typeof data104 == 'number') {
            if (data104 < 1 || isNaN(data104)) {
              const err200 = {
                instancePath: instancePath + '/chat/max_context_bytes',
                schemaPath: '#/properties/chat/properties/max_context_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err200];
              } else {
                vErrors.push(err200);
              }
              errors++;
            }
          }
        }
        if (data99.history_turns !== undefined) {
          let data105 = data99.history_turns;
          if (!(typeof data105 == 'number' && !(data105 % 1) && !isNaN(data105))) {
            const err201 = {
              instancePath: instancePath + '/chat/history_turns',
              schemaPath: '#/properties/chat/properties/history_turns/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err201];
            } else {
              vErrors.push(err201);
            }
            errors++;
          }
          if (typeof data105 == 'number') {
            if (data105 > 1000 || isNaN(data105)) {
              const err202 = {
                instancePath: instancePath + '/chat/history_turns',
                schemaPath: '#/properties/chat/properties/history_turns/maximum',
                keyword: 'maximum',
                params: { comparison: '<=', limit: 1000 },
                message: 'must be <= 1000',
              };
              if (vErrors === null) {
                vErrors = [err202];
              } else {
                vErrors.push(err202);
              }
              errors++;
            }
            if (data105 < 0 || isNaN(data105)) {
              const err203 = {
                instancePath: instancePath + '/chat/history_turns',
                schemaPath: '#/properties/chat/properties/history_turns/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err203];
              } else {
                vErrors.push(err203);
              }
              errors++;
            }
          }
        }
        if (data99.progress !== undefined) {
          if (typeof data99.progress !== 'boolean') {
            const err204 = {
              instancePath: instancePath + '/chat/progress',
              schemaPath: '#/properties/chat/properties/progress/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err204];
            } else {
              vErrors.push(err204);
            }
            errors++;
          }
        }
      } else {
        const err205 = {
          instancePath: instancePath + '/chat',
          schemaPath: '#/properties/chat/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err205];
        } else {
          vErrors.push(err205);
        }
        errors++;
      }
    }
    if (data.notify !== undefined) {
      let data107 = data.notify;
      if (data107 && typeof data107 == 'object' && !Array.isArray(data107)) {
        for (const key26 in data107) {
          if (!(key26 === 'webhooks' || key26 === 'allow_private_targets')) {
            const err206 = {
              instancePath: instancePath + '/notify',
              schemaPath: '#/properties/notify/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key26 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err206];
            } else {
              vErrors.push(err206);
            }
            errors++;
          }
        }
        if (data107.webhooks !== undefined) {
          let data108 = data107.webhooks;
          if (Array.isArray(data108)) {
            const len6 = data108.length;
            for (let i8 = 0; i8 < len6; i8++) {
              let data109 = data108[i8];
              if (data109 && typeof data109 == 'object' && !Array.isArray(data109)) {
                if (data109.url === undefined) {
                  const err207 = {
                    instancePath: instancePath + '/notify/webhooks/' + i8,
                    schemaPath: '#/properties/notify/properties/webhooks/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'url' },
                    message: "must have required property '" + 'url' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err207];
                  } else {
                    vErrors.push(err207);
                  }
                  errors++;
                }
                if (data109.secret_env === undefined) {
                  const err208 = {
                    instancePath: instancePath + '/notify/webhooks/' + i8,
                    schemaPath: '#/properties/notify/properties/webhooks/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'secret_env' },
                    message: "must have required property '" + 'secret_env' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err208];
                  } else {
                    vErrors.push(err208);
                  }
                  errors++;
                }
                for (const key27 in data109) {
                  if (!(key27 === 'url' || key27 === 'events' || key27 === 'secret_env')) {
                    const err209 = {
                      instancePath: instancePath + '/notify/webhooks/' + i8,
                      schemaPath: '#/properties/notify/properties/webhooks/items/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key27 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err209];
                    } else {
                      vErrors.push(err209);
                    }
                    errors++;
                  }
                }
                if (data109.url !== undefined) {
                  let data110 = data109.url;
                  if (typeof data110 === 'string') {
                    if (!pattern6.test(data110)) {
                      const err210 = {
                        instancePath: instancePath + '/notify/webhooks/' + i8 + '/url',
                        schemaPath: '#/properties/notify/properties/webhooks/items/properties/url/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^https?://[^\\s]+$' },
                        message: 'must match pattern "' + '^https?://[^\\s]+$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err210];
                      } else {
                        vErrors.push(err210);
                      }
                      errors++;
                    }
                  } else {
                    const err211 = {
                      instancePath: instancePath + '/notify/webhooks/' + i8 + '/url',
                      schemaPath: '#/properties/notify/properties/webhooks/items/properties/url/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err211];
                    } else {
                      vErrors.push(err211);
                    }
                    errors++;
                  }
                }
                if (data109.events !== undefined) {
                  let data111 = data109.events;
                  if (Array.isArray(data111)) {
                    if (data111.length < 1) {
                      const err212 = {
                        instancePath: instancePath + '/notify/webhooks/' + i8 + '/events',
                        schemaPath: '#/properties/notify/properties/webhooks/items/properties/events/minItems',
                        keyword: 'minItems',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 items',
                      };
                      if (vErrors === null) {
                        vErrors = [err212];
                      } else {
                        vErrors.push(err212);
                      }
                      errors++;
                    }
                    const len7 = data111.length;
                    for (let i9 = 0; i9 < len7; i9++) {
                      let data112 = data111[i9];
                      if (!(
                        data112 === 'session_finished' ||
                        data112 === 'session_paused' ||
                        data112 === 'approval_requested' ||
                        data112 === 'session_cancelled' ||
                        data112 === 'intervention_required'
                      )) {
                        const err213 = {
                          instancePath: instancePath + '/notify/webhooks/' + i8 + '/events/' + i9,
                          schemaPath: '#/properties/notify/properties/webhooks/items/properties/events/items/enum',
                          keyword: 'enum',
                          params: {
                            allowedValues:
                              schema11.properties.notify.properties.webhooks.items.properties.events.items.enum,
                          },
                          message: 'must be equal to one of the allowed values',
                        };
                        if (vErrors === null) {
                          vErrors = [err213];
                        } else {
                          vErrors.push(err213);
                        }
                        errors++;
                      }
                    }
                    let i10 = data111.length;
                    let j2;
                    if (i10 > 1) {
                      outer1: for (; i10--;) {
                        for (j2 = i10; j2--;) {
                          if (func0(data111[i10], data111[j2])) {
                            const err214 = {
                              instancePath: instancePath + '/notify/webhooks/' + i8 + '/events',
                              schemaPath: '#/properties/notify/properties/webhooks/items/properties/events/uniqueItems',
                              keyword: 'uniqueItems',
                              params: { i: i10, j: j2 },
                              message:
                                'must NOT have duplicate items (items ## ' + j2 + ' and ' + i10 + ' are identical)',
                            };
                            if (vErrors === null) {
                              vErrors = [err214];
                            } else {
                              vErrors.push(err214);
                            }
                            errors++;
                            break outer1;
                          }
                        }
                      }
                    }
                  } else {
                    const err215 = {
                      instancePath: instancePath + '/notify/webhooks/' + i8 + '/events',
                      schemaPath: '#/properties/notify/properties/webhooks/items/properties/events/type',
                      keyword: 'type',
                      params: { type: 'array' },
                      message: 'must be array',
                    };
                    if (vErrors === null) {
                      vErrors = [err215];
                    } else {
                      vErrors.push(err215);
                    }
                    errors++;
                  }
                }
                if (data109.secret_env !== undefined) {
                  let data113 = data109.secret_env;
                  if (typeof data113 === 'string') {
                    if (!pattern9.test(data113)) {
                      const err216 = {
                        instancePath: instancePath + '/notify/webhooks/' + i8 + '/secret_env',
                        schemaPath: '#/properties/notify/properties/webhooks/items/properties/secret_env/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
                        message: 'must match pattern "' + '^[A-Za-z_][A-Za-z0-9_]*$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err216];
                      } else {
                        vErrors.push(err216);
                      }
                      errors++;
                    }
                  } else {
                    const err217 = {
                      instancePath: instancePath + '/notify/webhooks/' + i8 + '/secret_env',
                      schemaPath: '#/properties/notify/properties/webhooks/items/properties/secret_env/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err217];
                    } else {
                      vErrors.push(err217);
                    }
                    errors++;
                  }
                }
              } else {
                const err218 = {
                  instancePath: instancePath + '/notify/webhooks/' + i8,
                  schemaPath: '#/properties/notify/properties/webhooks/items/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err218];
                } else {
                  vErrors.push(err218);
                }
                errors++;
              }
            }
          } else {
            const err219 = {
              instancePath: instancePath + '/notify/webhooks',
              schemaPath: '#/properties/notify/properties/webhooks/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err219];
            } else {
              vErrors.push(err219);
            }
            errors++;
          }
        }
        if (data107.allow_private_targets !== undefined) {
          if (typeof data107.allow_private_targets !== 'boolean') {
            const err220 = {
              instancePath: instancePath + '/notify/allow_private_targets',
              schemaPath: '#/properties/notify/properties/allow_private_targets/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err220];
            } else {
              vErrors.push(err220);
            }
            errors++;
          }
        }
      } else {
        const err221 = {
          instancePath: instancePath + '/notify',
          schemaPath: '#/properties/notify/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err221];
        } else {
          vErrors.push(err221);
        }
        errors++;
      }
    }
    if (data.tools !== undefined) {
      let data115 = data.tools;
      if (data115 && typeof data115 == 'object' && !Array.isArray(data115)) {
        for (const key28 in data115) {
          if (!(
            key28 === 'workspace' ||
            key28 === 'max_result_bytes' ||
            key28 === 'max_file_bytes' ||
            key28 === 'http_get' ||
            key28 === 'commands'
          )) {
            const err222 = {
              instancePath: instancePath + '/tools',
              schemaPath: '#/properties/tools/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key28 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err222];
            } else {
              vErrors.push(err222);
            }
            errors++;
          }
        }
        if (data115.workspace !== undefined) {
          let data116 = data115.workspace;
          if (typeof data116 === 'string') {
            if (func3(data116) < 1) {
              const err223 = {
                instancePath: instancePath + '/tools/workspace',
                schemaPath: '#/properties/tools/properties/workspace/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err223];
              } else {
                vErrors.push(err223);
              }
              errors++;
            }
          } else {
            const err224 = {
              instancePath: instancePath + '/tools/workspace',
              schemaPath: '#/properties/tools/properties/workspace/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err224];
            } else {
              vErrors.push(err224);
            }
            errors++;
          }
        }
        if (data115.max_result_bytes !== undefined) {
          let data117 = data115.max_result_bytes;
          if (!(typeof data117 == 'number' && !(data117 % 1) && !isNaN(data117))) {
            const err225 = {
              instancePath: instancePath + '/tools/max_result_bytes',
              schemaPath: '#/properties/tools/properties/max_result_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err225];
            } else {
              vErrors.push(err225);
            }
            errors++;
          }
          if (typeof data117 == 'number') {
            if (data117 < 1 || isNaN(data117)) {
              const err226 = {
                instancePath: instancePath + '/tools/max_result_bytes',
                schemaPath: '#/properties/tools/properties/max_result_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err226];
              } else {
                vErrors.push(err226);
              }
              errors++;
            }
          }
        }
        if (data115.max_file_bytes !== undefined) {
          let data118 = data115.max_file_bytes;
          if (!(typeof data118 == 'number' && !(data118 % 1) && !isNaN(data118))) {
            const err227 = {
              instancePath: instancePath + '/tools/max_file_bytes',
              schemaPath: '#/properties/tools/properties/max_file_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err227];
            } else {
              vErrors.push(err227);
            }
            errors++;
          }
          if (typeof data118 == 'number') {
            if (data118 < 1 || isNaN(data118)) {
              const err228 = {
                instancePath: instancePath + '/tools/max_file_bytes',
                schemaPath: '#/properties/tools/properties/max_file_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err228];
              } else {
                vErrors.push(err228);
              }
              errors++;
            }
          }
        }
        if (data115.http_get !== undefined) {
          let data119 = data115.http_get;
          if (data119 && typeof data119 == 'object' && !Array.isArray(data119)) {
            for (const key29 in data119) {
              if (!(
                key29 === 'allow_hosts' ||
                key29 === 'max_bytes' ||
                key29 === 'timeout_ms' ||
                key29 === 'max_redirects'
              )) {
                const err229 = {
                  instancePath: instancePath + '/tools/http_get',
                  schemaPath: '#/properties/tools/properties/http_get/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key29 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err229];
                } else {
                  vErrors.push(err229);
                }
                errors++;
              }
            }
            if (data119.allow_hosts !== undefined) {
              let data120 = data119.allow_hosts;
              if (Array.isArray(data120)) {
                const len8 = data120.length;
                for (let i11 = 0; i11 < len8; i11++) {
                  let data121 = data120[i11];
                  if (typeof data121 === 'string') {
                    if (func3(data121) < 1) {
                      const err230 = {
                        instancePath: instancePath + '/tools/http_get/allow_hosts/' + i11,
                        schemaPath: '#/properties/tools/properties/http_get/properties/allow_hosts/items/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err230];
                      } else {
                        vErrors.push(err230);
                      }
                      errors++;
                    }
                  } else {
                    const err231 = {
                      instancePath: instancePath + '/tools/http_get/allow_hosts/' + i11,
                      schemaPath: '#/properties/tools/properties/http_get/properties/allow_hosts/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err231];
                    } else {
                      vErrors.push(err231);
                    }
                    errors++;
                  }
                }
              } else {
                const err232 = {
                  instancePath: instancePath + '/tools/http_get/allow_hosts',
                  schemaPath: '#/properties/tools/properties/http_get/properties/allow_hosts/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err232];
                } else {
                  vErrors.push(err232);
                }
                errors++;
              }
            }
            if (data119.max_bytes !== undefined) {
              let data122 = data119.max_bytes;
              if (!(typeof data122 == 'number' && !(data122 % 1) && !isNaN(data122))) {
                const err233 = {
                  instancePath: instancePath + '/tools/http_get/max_bytes',
                  schemaPath: '#/properties/tools/properties/http_get/properties/max_bytes/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err233];
                } else {
                  vErrors.push(err233);
                }
                errors++;
              }
              if (typeof data122 == 'number') {
                if (data122 < 1 || isNaN(data122)) {
                  const err234 = {
                    instancePath: instancePath + '/tools/http_get/max_bytes',
                    schemaPath: '#/properties/tools/properties/http_get/properties/max_bytes/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err234];
                  } else {
                    vErrors.push(err234);
                  }
                  errors++;
                }
              }
            }
            if (data119.timeout_ms !== undefined) {
              let data123 = data119.timeout_ms;
              if (!(typeof data123 == 'number' && !(data123 % 1) && !isNaN(data123))) {
                const err235 = {
                  instancePath: instancePath + '/tools/http_get/timeout_ms',
                  schemaPath: '#/properties/tools/properties/http_get/properties/timeout_ms/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err235];
                } else {
                  vErrors.push(err235);
                }
                errors++;
              }
              if (typeof data123 == 'number') {
                if (data123 < 1 || isNaN(data123)) {
                  const err236 = {
                    instancePath: instancePath + '/tools/http_get/timeout_ms',
                    schemaPath: '#/properties/tools/properties/http_get/properties/timeout_ms/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err236];
                  } else {
                    vErrors.push(err236);
                  }
                  errors++;
                }
              }
            }
            if (data119.max_redirects !== undefined) {
              let data124 = data119.max_redirects;
              if (!(typeof data124 == 'number' && !(data124 % 1) && !isNaN(data124))) {
                const err237 = {
                  instancePath: instancePath + '/tools/http_get/max_redirects',
                  schemaPath: '#/properties/tools/properties/http_get/properties/max_redirects/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err237];
                } else {
                  vErrors.push(err237);
                }
                errors++;
              }
              if (typeof data124 == 'number') {
                if (data124 < 0 || isNaN(data124)) {
                  const err238 = {
                    instancePath: instancePath + '/tools/http_get/max_redirects',
                    schemaPath: '#/properties/tools/properties/http_get/properties/max_redirects/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err238];
                  } else {
                    vErrors.push(err238);
                  }
                  errors++;
                }
              }
            }
          } else {
            const err239 = {
              instancePath: instancePath + '/tools/http_get',
              schemaPath: '#/properties/tools/properties/http_get/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err239];
            } else {
              vErrors.push(err239);
            }
            errors++;
          }
        }
        if (data115.commands !== undefined) {
          let data125 = data115.commands;
          if (data125 && typeof data125 == 'object' && !Array.isArray(data125)) {
            for (const key30 in data125) {
              if (!(
                key30 === 'allow' ||
                key30 === 'auto_approve' ||
                key30 === 'timeout_ms' ||
                key30 === 'max_output_bytes' ||
                key30 === 'network' ||
                key30 === 'sandbox'
              )) {
                const err240 = {
                  instancePath: instancePath + '/tools/commands',
                  schemaPath: '#/properties/tools/properties/commands/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key30 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err240];
                } else {
                  vErrors.push(err240);
                }
                errors++;
              }
            }
            if (data125.allow !== undefined) {
              let data126 = data125.allow;
              if (Array.isArray(data126)) {
                const len9 = data126.length;
                for (let i12 = 0; i12 < len9; i12++) {
                  let data127 = data126[i12];
                  if (typeof data127 === 'string') {
                    if (func3(data127) < 1) {
                      const err241 = {
                        instancePath: instancePath + '/tools/commands/allow/' + i12,
                        schemaPath: '#/properties/tools/properties/commands/properties/allow/items/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err241];
                      } else {
                        vErrors.push(err241);
                      }
                      errors++;
                    }
                  } else {
                    const err242 = {
                      instancePath: instancePath + '/tools/commands/allow/' + i12,
                      schemaPath: '#/properties/tools/properties/commands/properties/allow/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err242];
                    } else {
                      vErrors.push(err242);
                    }
                    errors++;
                  }
                }
                let i13 = data126.length;
                let j3;
                if (i13 > 1) {
                  const indices1 = {};
                  for (; i13--;) {
                    let item1 = data126[i13];
                    if (typeof item1 !== 'string') {
                      continue;
                    }
                    if (typeof indices1[item1] == 'number') {
                      j3 = indices1[item1];
                      const err243 = {
                        instancePath: instancePath + '/tools/commands/allow',
                        schemaPath: '#/properties/tools/properties/commands/properties/allow/uniqueItems',
                        keyword: 'uniqueItems',
                        params: { i: i13, j: j3 },
                        message: 'must NOT have duplicate items (items ## ' + j3 + ' and ' + i13 + ' are identical)',
                      };
                      if (vErrors === null) {
                        vErrors = [err243];
                      } else {
                        vErrors.push(err243);
                      }
                      errors++;
                      break;
                    }
                    indices1[item1] = i13;
                  }
                }
              } else {
                const err244 = {
                  instancePath: instancePath + '/tools/commands/allow',
                  schemaPath: '#/properties/tools/properties/commands/properties/allow/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err244];
                } else {
                  vErrors.push(err244);
                }
                errors++;
              }
            }
            if (data125.auto_approve !== undefined) {
              let data128 = data125.auto_approve;
              if (Array.isArray(data128)) {
                const len10 = data128.length;
                for (let i14 = 0; i14 < len10; i14++) {
                  let data129 = data128[i14];
                  if (typeof data129 === 'string') {
                    if (func3(data129) < 1) {
                      const err245 = {
                        instancePath: instancePath + '/tools/commands/auto_approve/' + i14,
                        schemaPath: '#/properties/tools/properties/commands/properties/auto_approve/items/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err245];
                      } else {
                        vErrors.push(err245);
                      }
                      errors++;
                    }
                  } else {
                    const err246 = {
                      instancePath: instancePath + '/tools/commands/auto_approve/' + i14,
                      schemaPath: '#/properties/tools/properties/commands/properties/auto_approve/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err246];
                    } else {
                      vErrors.push(err246);
                    }
                    errors++;
                  }
                }
                let i15 = data128.length;
                let j4;
                if (i15 > 1) {
                  const indices2 = {};
                  for (; i15--;) {
                    let item2 = data128[i15];
                    if (typeof item2 !== 'string') {
                      continue;
                    }
                    if (typeof indices2[item2] == 'number') {
                      j4 = indices2[item2];
                      const err247 = {
                        instancePath: instancePath + '/tools/commands/auto_approve',
                        schemaPath: '#/properties/tools/properties/commands/properties/auto_approve/uniqueItems',
                        keyword: 'uniqueItems',
                        params: { i: i15, j: j4 },
                        message: 'must NOT have duplicate items (items ## ' + j4 + ' and ' + i15 + ' are identical)',
                      };
                      if (vErrors === null) {
                        vErrors = [err247];
                      } else {
                        vErrors.push(err247);
                      }
                      errors++;
                      break;
                    }
                    indices2[item2] = i15;
                  }
                }
              } else {
                const err248 = {
                  instancePath: instancePath + '/tools/commands/auto_approve',
                  schemaPath: '#/properties/tools/properties/commands/properties/auto_approve/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err248];
                } else {
                  vErrors.push(err248);
                }
                errors++;
              }
            }
            if (data125.timeout_ms !== undefined) {
              let data130 = data125.timeout_ms;
              if (!(typeof data130 == 'number' && !(data130 % 1) && !isNaN(data130))) {
                const err249 = {
                  instancePath: instancePath + '/tools/commands/timeout_ms',
                  schemaPath: '#/properties/tools/properties/commands/properties/timeout_ms/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err249];
                } else {
                  vErrors.push(err249);
                }
                errors++;
              }
              if (typeof data130 == 'number') {
                if (data130 < 1 || isNaN(data130)) {
                  const err250 = {
                    instancePath: instancePath + '/tools/commands/timeout_ms',
                    schemaPath: '#/properties/tools/properties/commands/properties/timeout_ms/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err250];
                  } else {
                    vErrors.push(err250);
                  }
                  errors++;
                }
              }
            }
            if (data125.max_output_bytes !== undefined) {
              let data131 = data125.max_output_bytes;
              if (!(typeof data131 == 'number' && !(data131 % 1) && !isNaN(data131))) {
                const err251 = {
                  instancePath: instancePath + '/tools/commands/max_output_bytes',
                  schemaPath: '#/properties/tools/properties/commands/properties/max_output_bytes/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err251];
                } else {
                  vErrors.push(err251);
                }
                errors++;
              }
              if (typeof data131 == 'number') {
                if (data131 < 1 || isNaN(data131)) {
                  const err252 = {
                    instancePath: instancePath + '/tools/commands/max_output_bytes',
                    schemaPath: '#/properties/tools/properties/commands/properties/max_output_bytes/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err252];
                  } else {
                    vErrors.push(err252);
                  }
                  errors++;
                }
              }
            }
            if (data125.network !== undefined) {
              if (typeof data125.network !== 'boolean') {
                const err253 = {
                  instancePath: instancePath + '/tools/commands/network',
                  schemaPath: '#/properties/tools/properties/commands/properties/network/type',
                  keyword: 'type',
                  params: { type: 'boolean' },
                  message: 'must be boolean',
                };
                if (vErrors === null) {
                  vErrors = [err253];
                } else {
                  vErrors.push(err253);
                }
                errors++;
              }
            }
            if (data125.sandbox !== undefined) {
              let data133 = data125.sandbox;
              if (!(data133 === 'bwrap' || data133 === 'none')) {
                const err254 = {
                  instancePath: instancePath + '/tools/commands/sandbox',
                  schemaPath: '#/properties/tools/properties/commands/properties/sandbox/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.tools.properties.commands.properties.sandbox.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err254];
                } else {
                  vErrors.push(err254);
                }
                errors++;
              }
            }
          } else {
            const err255 = {
              instancePath: instancePath + '/tools/commands',
              schemaPath: '#/properties/tools/properties/commands/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err255];
            } else {
              vErrors.push(err255);
            }
            errors++;
          }
        }
      } else {
        const err256 = {
          instancePath: instancePath + '/tools',
          schemaPath: '#/properties/tools/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err256];
        } else {
          vErrors.push(err256);
        }
        errors++;
      }
    }
    if (data.store !== undefined) {
      let data134 = data.store;
      if (data134 && typeof data134 == 'object' && !Array.isArray(data134)) {
        for (const key31 in data134) {
          if (!(key31 === 'kind' || key31 === 'url' || key31 === 'schema')) {
            const err257 = {
              instancePath: instancePath + '/store',
              schemaPath: '#/properties/store/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key31 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err257];
            } else {
              vErrors.push(err257);
            }
            errors++;
          }
        }
        if (data134.kind !== undefined) {
          let data135 = data134.kind;
          if (!(data135 === 'files' || data135 === 'postgres')) {
            const err258 = {
              instancePath: instancePath + '/store/kind',
              schemaPath: '#/properties/store/properties/kind/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.store.properties.kind.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err258];
            } else {
              vErrors.push(err258);
            }
            errors++;
          }
        }
        if (data134.url !== undefined) {
          let data136 = data134.url;
          if (typeof data136 !== 'string' && data136 !== null) {
            const err259 = {
              instancePath: instancePath + '/store/url',
              schemaPath: '#/properties/store/properties/url/type',
              keyword: 'type',
              params: { type: schema11.properties.store.properties.url.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err259];
            } else {
              vErrors.push(err259);
            }
            errors++;
          }
          if (typeof data136 === 'string') {
            if (func3(data136) < 1) {
              const err260 = {
                instancePath: instancePath + '/store/url',
                schemaPath: '#/properties/store/properties/url/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err260];
              } else {
                vErrors.push(err260);
              }
              errors++;
            }
          }
        }
        if (data134.schema !== undefined) {
          let data137 = data134.schema;
          if (typeof data137 === 'string') {
            if (!pattern10.test(data137)) {
              const err261 = {
                instancePath: instancePath + '/store/schema',
                schemaPath: '#/properties/store/properties/schema/pattern',
                keyword: 'pattern',
                params: { pattern: '^[a-z_][a-z0-9_]{0,62}$' },
                message: 'must match pattern "' + '^[a-z_][a-z0-9_]{0,62}$' + '"',
              };
              if (vErrors === null) {
                vErrors = [err261];
              } else {
                vErrors.push(err261);
              }
              errors++;
            }
          } else {
            const err262 = {
              instancePath: instancePath + '/store/schema',
              schemaPath: '#/properties/store/properties/schema/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err262];
            } else {
              vErrors.push(err262);
            }
            errors++;
          }
        }
      } else {
        const err263 = {
          instancePath: instancePath + '/store',
          schemaPath: '#/properties/store/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err263];
        } else {
          vErrors.push(err263);
        }
        errors++;
      }
    }
    if (data.cluster !== undefined) {
      let data138 = data.cluster;
      if (data138 && typeof data138 == 'object' && !Array.isArray(data138)) {
        for (const key32 in data138) {
          if (!(key32 === 'lease_ms' || key32 === 'pool_size' || key32 === 'connect_timeout_ms')) {
            const err264 = {
              instancePath: instancePath + '/cluster',
              schemaPath: '#/properties/cluster/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key32 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err264];
            } else {
              vErrors.push(err264);
            }
            errors++;
          }
        }
        if (data138.lease_ms !== undefined) {
          let data139 = data138.lease_ms;
          if (!(typeof data139 == 'number' && !(data139 % 1) && !isNaN(data139))) {
            const err265 = {
              instancePath: instancePath + '/cluster/lease_ms',
              schemaPath: '#/properties/cluster/properties/lease_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err265];
            } else {
              vErrors.push(err265);
            }
            errors++;
          }
          if (typeof data139 == 'number') {
            if (data139 < 1000 || isNaN(data139)) {
              const err266 = {
                instancePath: instancePath + '/cluster/lease_ms',
                schemaPath: '#/properties/cluster/properties/lease_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1000 },
                message: 'must be >= 1000',
              };
              if (vErrors === null) {
                vErrors = [err266];
              } else {
                vErrors.push(err266);
              }
              errors++;
            }
          }
        }
        if (data138.pool_size !== undefined) {
          let data140 = data138.pool_size;
          if (!(typeof data140 == 'number' && !(data140 % 1) && !isNaN(data140))) {
            const err267 = {
              instancePath: instancePath + '/cluster/pool_size',
              schemaPath: '#/properties/cluster/properties/pool_size/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err267];
            } else {
              vErrors.push(err267);
            }
            errors++;
          }
          if (typeof data140 == 'number') {
            if (data140 > 100 || isNaN(data140)) {
              const err268 = {
                instancePath: instancePath + '/cluster/pool_size',
                schemaPath: '#/properties/cluster/properties/pool_size/maximum',
                keyword: 'maximum',
                params: { comparison: '<=', limit: 100 },
                message: 'must be <= 100',
              };
              if (vErrors === null) {
                vErrors = [err268];
              } else {
                vErrors.push(err268);
              }
              errors++;
            }
            if (data140 < 2 || isNaN(data140)) {
              const err269 = {
                instancePath: instancePath + '/cluster/pool_size',
                schemaPath: '#/properties/cluster/properties/pool_size/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 2 },
                message: 'must be >= 2',
              };
              if (vErrors === null) {
                vErrors = [err269];
              } else {
                vErrors.push(err269);
              }
              errors++;
            }
          }
        }
        if (data138.connect_timeout_ms !== undefined) {
          let data141 = data138.connect_timeout_ms;
          if (!(typeof data141 == 'number' && !(data141 % 1) && !isNaN(data141))) {
            const err270 = {
              instancePath: instancePath + '/cluster/connect_timeout_ms',
              schemaPath: '#/properties/cluster/properties/connect_timeout_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err270];
            } else {
              vErrors.push(err270);
            }
            errors++;
          }
          if (typeof data141 == 'number') {
            if (data141 > 25000 || isNaN(data141)) {
              const err271 = {
                instancePath: instancePath + '/cluster/connect_timeout_ms',
                schemaPath: '#/properties/cluster/properties/connect_timeout_ms/maximum',
                keyword: 'maximum',
                params: { comparison: '<=', limit: 25000 },
                message: 'must be <= 25000',
              };
              if (vErrors === null) {
                vErrors = [err271];
              } else {
                vErrors.push(err271);
              }
              errors++;
            }
            if (data141 < 100 || isNaN(data141)) {
              const err272 = {
                instancePath: instancePath + '/cluster/connect_timeout_ms',
                schemaPath: '#/properties/cluster/properties/connect_timeout_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 100 },
                message: 'must be >= 100',
              };
              if (vErrors === null) {
                vErrors = [err272];
              } else {
                vErrors.push(err272);
              }
              errors++;
            }
          }
        }
      } else {
        const err273 = {
          instancePath: instancePath + '/cluster',
          schemaPath: '#/properties/cluster/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err273];
        } else {
          vErrors.push(err273);
        }
        errors++;
      }
    }
    if (data.mcp !== undefined) {
      let data142 = data.mcp;
      if (data142 && typeof data142 == 'object' && !Array.isArray(data142)) {
        for (const key33 in data142) {
          if (!(key33 === 'servers' || key33 === 'timeout_ms')) {
            const err274 = {
              instancePath: instancePath + '/mcp',
              schemaPath: '#/properties/mcp/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key33 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err274];
            } else {
              vErrors.push(err274);
            }
            errors++;
          }
        }
        if (data142.servers !== undefined) {
          let data143 = data142.servers;
          if (data143 && typeof data143 == 'object' && !Array.isArray(data143)) {
            for (const key34 in data143) {
              const _errs314 = errors;
              if (typeof key34 === 'string') {
                if (!pattern11.test(key34)) {
                  const err275 = {
                    instancePath: instancePath + '/mcp/servers',
                    schemaPath: '#/properties/mcp/properties/servers/propertyNames/pattern',
                    keyword: 'pattern',
                    params: { pattern: '^[A-Za-z0-9_.-]+$' },
                    message: 'must match pattern "' + '^[A-Za-z0-9_.-]+$' + '"',
                    propertyName: key34,
                  };
                  if (vErrors === null) {
                    vErrors = [err275];
                  } else {
                    vErrors.push(err275);
                  }
                  errors++;
                }
              }
              var valid62 = _errs314 === errors;
              if (!valid62) {
                const err276 = {
                  instancePath: instancePath + '/mcp/servers',
                  schemaPath: '#/properties/mcp/properties/servers/propertyNames',
                  keyword: 'propertyNames',
                  params: { propertyName: key34 },
                  message: 'property name must be valid',
                };
                if (vErrors === null) {
                  vErrors = [err276];
                } else {
                  vErrors.push(err276);
                }
                errors++;
              }
            }
            for (const key35 in data143) {
              let data144 = data143[key35];
              if (data144 && typeof data144 == 'object' && !Array.isArray(data144)) {
                for (const key36 in data144) {
                  if (!(
                    key36 === 'command' ||
                    key36 === 'args' ||
                    key36 === 'env' ||
                    key36 === 'cwd' ||
                    key36 === 'url' ||
                    key36 === 'headers_env' ||
                    key36 === 'forward_authorization' ||
                    key36 === 'timeout_ms'
                  )) {
                    const err277 = {
                      instancePath: instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1'),
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key36 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err277];
                    } else {
                      vErrors.push(err277);
                    }
                    errors++;
                  }
                }
                if (data144.command !== undefined) {
                  let data145 = data144.command;
                  if (typeof data145 === 'string') {
                    if (func3(data145) < 1) {
                      const err278 = {
                        instancePath:
                          instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/command',
                        schemaPath:
                          '#/properties/mcp/properties/servers/additionalProperties/properties/command/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err278];
                      } else {
                        vErrors.push(err278);
                      }
                      errors++;
                    }
                  } else {
                    const err279 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/command',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/command/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err279];
                    } else {
                      vErrors.push(err279);
                    }
                    errors++;
                  }
                }
                if (data144.args !== undefined) {
                  let data146 = data144.args;
                  if (Array.isArray(data146)) {
                    const len11 = data146.length;
                    for (let i16 = 0; i16 < len11; i16++) {
                      if (typeof data146[i16] !== 'string') {
                        const err280 = {
                          instancePath:
                            instancePath +
                            '/mcp/servers/' +
                            key35.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/args/' +
                            i16,
                          schemaPath:
                            '#/properties/mcp/properties/servers/additionalProperties/properties/args/items/type',
                          keyword: 'type',
                          params: { type: 'string' },
                          message: 'must be string',
                        };
                        if (vErrors === null) {
                          vErrors = [err280];
                        } else {
                          vErrors.push(err280);
                        }
                        errors++;
                      }
                    }
                  } else {
                    const err281 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/args',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/args/type',
                      keyword: 'type',
                      params: { type: 'array' },
                      message: 'must be array',
                    };
                    if (vErrors === null) {
                      vErrors = [err281];
                    } else {
                      vErrors.push(err281);
                    }
                    errors++;
                  }
                }
                if (data144.env !== undefined) {
                  let data148 = data144.env;
                  if (data148 && typeof data148 == 'object' && !Array.isArray(data148)) {
                    for (const key37 in data148) {
                      if (typeof data148[key37] !== 'string') {
                        const err282 = {
                          instancePath:
                            instancePath +
                            '/mcp/servers/' +
                            key35.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/env/' +
                            key37.replace(/~/g, '~0').replace(/\//g, '~1'),
                          schemaPath:
                            '#/properties/mcp/properties/servers/additionalProperties/properties/env/additionalProperties/type',
                          keyword: 'type',
                          params: { type: 'string' },
                          message: 'must be string',
                        };
                        if (vErrors === null) {
                          vErrors = [err282];
                        } else {
                          vErrors.push(err282);
                        }
                        errors++;
                      }
                    }
                  } else {
                    const err283 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/env',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/env/type',
                      keyword: 'type',
                      params: { type: 'object' },
                      message: 'must be object',
                    };
                    if (vErrors === null) {
                      vErrors = [err283];
                    } else {
                      vErrors.push(err283);
                    }
                    errors++;
                  }
                }
                if (data144.cwd !== undefined) {
                  let data150 = data144.cwd;
                  if (typeof data150 === 'string') {
                    if (func3(data150) < 1) {
                      const err284 = {
                        instancePath:
                          instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/cwd',
                        schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/cwd/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err284];
                      } else {
                        vErrors.push(err284);
                      }
                      errors++;
                    }
                  } else {
                    const err285 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/cwd',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/cwd/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err285];
                    } else {
                      vErrors.push(err285);
                    }
                    errors++;
                  }
                }
                if (data144.url !== undefined) {
                  let data151 = data144.url;
                  if (typeof data151 === 'string') {
                    if (!pattern1.test(data151)) {
                      const err286 = {
                        instancePath:
                          instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/url',
                        schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/url/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^https?://' },
                        message: 'must match pattern "' + '^https?://' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err286];
                      } else {
                        vErrors.push(err286);
                      }
                      errors++;
                    }
                  } else {
                    const err287 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/url',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/url/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err287];
                    } else {
                      vErrors.push(err287);
                    }
                    errors++;
                  }
                }
                if (data144.headers_env !== undefined) {
                  let data152 = data144.headers_env;
                  if (data152 && typeof data152 == 'object' && !Array.isArray(data152)) {
                    for (const key38 in data152) {
                      let data153 = data152[key38];
                      if (typeof data153 === 'string') {
                        if (!pattern9.test(data153)) {
                          const err288 = {
                            instancePath:
                              instancePath +
                              '/mcp/servers/' +
                              key35.replace(/~/g, '~0').replace(/\//g, '~1') +
                              '/headers_env/' +
                              key38.replace(/~/g, '~0').replace(/\//g, '~1'),
                            schemaPath:
                              '#/properties/mcp/properties/servers/additionalProperties/properties/headers_env/additionalProperties/pattern',
                            keyword: 'pattern',
                            params: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
                            message: 'must match pattern "' + '^[A-Za-z_][A-Za-z0-9_]*$' + '"',
                          };
                          if (vErrors === null) {
                            vErrors = [err288];
                          } else {
                            vErrors.push(err288);
                          }
                          errors++;
                        }
                      } else {
                        const err289 = {
                          instancePath:
                            instancePath +
                            '/mcp/servers/' +
                            key35.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/headers_env/' +
                            key38.replace(/~/g, '~0').replace(/\//g, '~1'),
                          schemaPath:
                            '#/properties/mcp/properties/servers/additionalProperties/properties/headers_env/additionalProperties/type',
                          keyword: 'type',
                          params: { type: 'string' },
                          message: 'must be string',
                        };
                        if (vErrors === null) {
                          vErrors = [err289];
                        } else {
                          vErrors.push(err289);
                        }
                        errors++;
                      }
                    }
                  } else {
                    const err290 = {
                      instancePath:
                        instancePath +
                        '/mcp/servers/' +
                        key35.replace(/~/g, '~0').replace(/\//g, '~1') +
                        '/headers_env',
                      schemaPath:
                        '#/properties/mcp/properties/servers/additionalProperties/properties/headers_env/type',
                      keyword: 'type',
                      params: { type: 'object' },
                      message: 'must be object',
                    };
                    if (vErrors === null) {
                      vErrors = [err290];
                    } else {
                      vErrors.push(err290);
                    }
                    errors++;
                  }
                }
                if (data144.forward_authorization !== undefined) {
                  if (typeof data144.forward_authorization !== 'boolean') {
                    const err291 = {
                      instancePath:
                        instancePath +
                        '/mcp/servers/' +
                        key35.replace(/~/g, '~0').replace(/\//g, '~1') +
                        '/forward_authorization',
                      schemaPath:
                        '#/properties/mcp/properties/servers/additionalProperties/properties/forward_authorization/type',
                      keyword: 'type',
                      params: { type: 'boolean' },
                      message: 'must be boolean',
                    };
                    if (vErrors === null) {
                      vErrors = [err291];
                    } else {
                      vErrors.push(err291);
                    }
                    errors++;
                  }
                }
                if (data144.timeout_ms !== undefined) {
                  let data155 = data144.timeout_ms;
                  if (!(typeof data155 == 'number' && !(data155 % 1) && !isNaN(data155))) {
                    const err292 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1') + '/timeout_ms',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/timeout_ms/type',
                      keyword: 'type',
                      params: { type: 'integer' },
                      message: 'must be integer',
                    };
                    if (vErrors === null) {
                      vErrors = [err292];
                    } else {
                      vErrors.push(err292);
                    }
                    errors++;
                  }
                  if (typeof data155 == 'number') {
                    if (data155 < 1 || isNaN(data155)) {
                      const err293 = {
                        instancePath:
                          instancePath +
                          '/mcp/servers/' +
                          key35.replace(/~/g, '~0').replace(/\//g, '~1') +
                          '/timeout_ms',
                        schemaPath:
                          '#/properties/mcp/properties/servers/additionalProperties/properties/timeout_ms/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 1 },
                        message: 'must be >= 1',
                      };
                      if (vErrors === null) {
                        vErrors = [err293];
                      } else {
                        vErrors.push(err293);
                      }
                      errors++;
                    }
                  }
                }
              } else {
                const err294 = {
                  instancePath: instancePath + '/mcp/servers/' + key35.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/mcp/properties/servers/additionalProperties/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err294];
                } else {
                  vErrors.push(err294);
                }
                errors++;
              }
            }
          } else {
            const err295 = {
              instancePath: instancePath + '/mcp/servers',
              schemaPath: '#/properties/mcp/properties/servers/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err295];
            } else {
              vErrors.push(err295);
            }
            errors++;
          }
        }
        if (data142.timeout_ms !== undefined) {
          let data156 = data142.timeout_ms;
          if (!(typeof data156 == 'number' && !(data156 % 1) && !isNaN(data156))) {
            const err296 = {
              instancePath: instancePath + '/mcp/timeout_ms',
              schemaPath: '#/properties/mcp/properties/timeout_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err296];
            } else {
              vErrors.push(err296);
            }
            errors++;
          }
          if (typeof data156 == 'number') {
            if (data156 < 1 || isNaN(data156)) {
              const err297 = {
                instancePath: instancePath + '/mcp/timeout_ms',
                schemaPath: '#/properties/mcp/properties/timeout_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err297];
              } else {
                vErrors.push(err297);
              }
              errors++;
            }
          }
        }
      } else {
        const err298 = {
          instancePath: instancePath + '/mcp',
          schemaPath: '#/properties/mcp/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err298];
        } else {
          vErrors.push(err298);
        }
        errors++;
      }
    }
    if (data.prices !== undefined) {
      let data157 = data.prices;
      if (data157 && typeof data157 == 'object' && !Array.isArray(data157)) {
        for (const key39 in data157) {
          let data158 = data157[key39];
          if (data158 && typeof data158 == 'object' && !Array.isArray(data158)) {
            if (data158.input === undefined) {
              const err299 = {
                instancePath: instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/prices/additionalProperties/required',
                keyword: 'required',
                params: { missingProperty: 'input' },
                message: "must have required property '" + 'input' + "'",
              };
              if (vErrors === null) {
                vErrors = [err299];
              } else {
                vErrors.push(err299);
              }
              errors++;
            }
            if (data158.output === undefined) {
              const err300 = {
                instancePath: instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/prices/additionalProperties/required',
                keyword: 'required',
                params: { missingProperty: 'output' },
                message: "must have required property '" + 'output' + "'",
              };
              if (vErrors === null) {
                vErrors = [err300];
              } else {
                vErrors.push(err300);
              }
              errors++;
            }
            for (const key40 in data158) {
              if (!(key40 === 'input' || key40 === 'output' || key40 === 'cached_input')) {
                const err301 = {
                  instancePath: instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/prices/additionalProperties/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key40 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err301];
                } else {
                  vErrors.push(err301);
                }
                errors++;
              }
            }
            if (data158.input !== undefined) {
              let data159 = data158.input;
              if (typeof data159 == 'number') {
                if (data159 < 0 || isNaN(data159)) {
                  const err302 = {
                    instancePath: instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1') + '/input',
                    schemaPath: '#/properties/prices/additionalProperties/properties/input/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err302];
                  } else {
                    vErrors.push(err302);
                  }
                  errors++;
                }
              } else {
                const err303 = {
                  instancePath: instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1') + '/input',
                  schemaPath: '#/properties/prices/additionalProperties/properties/input/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err303];
                } else {
                  vErrors.push(err303);
                }
                errors++;
              }
            }
            if (data158.output !== undefined) {
              let data160 = data158.output;
              if (typeof data160 == 'number') {
                if (data160 < 0 || isNaN(data160)) {
                  const err304 = {
                    instancePath:
                      instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1') + '/output',
                    schemaPath: '#/properties/prices/additionalProperties/properties/output/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err304];
                  } else {
                    vErrors.push(err304);
                  }
                  errors++;
                }
              } else {
                const err305 = {
                  instancePath: instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1') + '/output',
                  schemaPath: '#/properties/prices/additionalProperties/properties/output/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err305];
                } else {
                  vErrors.push(err305);
                }
                errors++;
              }
            }
            if (data158.cached_input !== undefined) {
              let data161 = data158.cached_input;
              if (typeof data161 == 'number') {
                if (data161 < 0 || isNaN(data161)) {
                  const err306 = {
                    instancePath:
                      instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1') + '/cached_input',
                    schemaPath: '#/properties/prices/additionalProperties/properties/cached_input/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err306];
                  } else {
                    vErrors.push(err306);
                  }
                  errors++;
                }
              } else {
                const err307 = {
                  instancePath:
                    instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1') + '/cached_input',
                  schemaPath: '#/properties/prices/additionalProperties/properties/cached_input/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err307];
                } else {
                  vErrors.push(err307);
                }
                errors++;
              }
            }
          } else {
            const err308 = {
              instancePath: instancePath + '/prices/' + key39.replace(/~/g, '~0').replace(/\//g, '~1'),
              schemaPath: '#/properties/prices/additionalProperties/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err308];
            } else {
              vErrors.push(err308);
            }
            errors++;
          }
        }
      } else {
        const err309 = {
          instancePath: instancePath + '/prices',
          schemaPath: '#/properties/prices/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err309];
        } else {
          vErrors.push(err309);
        }
        errors++;
      }
    }
    if (data.pricing !== undefined) {
      let data162 = data.pricing;
      if (data162 && typeof data162 == 'object' && !Array.isArray(data162)) {
        for (const key41 in data162) {
          let data163 = data162[key41];
          if (data163 && typeof data163 == 'object' && !Array.isArray(data163)) {
            if (data163.input_per_mtok === undefined) {
              const err310 = {
                instancePath: instancePath + '/pricing/' + key41.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/pricing/additionalProperties/required',
                keyword: 'required',
                params: { missingProperty: 'input_per_mtok' },
                message: "must have required property '" + 'input_per_mtok' + "'",
              };
              if (vErrors === null) {
                vErrors = [err310];
              } else {
                vErrors.push(err310);
              }
              errors++;
            }
            if (data163.output_per_mtok === undefined) {
              const err311 = {
                instancePath: instancePath + '/pricing/' + key41.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/pricing/additionalProperties/required',
                keyword: 'required',
                params: { missingProperty: 'output_per_mtok' },
                message: "must have required property '" + 'output_per_mtok' + "'",
              };
              if (vErrors === null) {
                vErrors = [err311];
              } else {
                vErrors.push(err311);
              }
              errors++;
            }
            for (const key42 in data163) {
              if (!(key42 === 'input_per_mtok' || key42 === 'output_per_mtok' || key42 === 'cached_input_per_mtok')) {
                const err312 = {
                  instancePath: instancePath + '/pricing/' + key41.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/pricing/additionalProperties/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key42 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err312];
                } else {
                  vErrors.push(err312);
                }
                errors++;
              }
            }
            if (data163.input_per_mtok !== undefined) {
              let data164 = data163.input_per_mtok;
              if (typeof data164 == 'number') {
                if (data164 < 0 || isNaN(data164)) {
                  const err313 = {
                    instancePath:
                      instancePath + '/pricing/' + key41.replace(/~/g, '~0').replace(/\//g, '~1') + '/input_per_mtok',
                    schemaPath: '#/properties/pricing/additionalProperties/properties/input_per_mtok/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err313];
                  } else {
                    vErrors.push(err313);
                  }
                  errors++;
                }
              } else {
                const err314 = {
                  instancePath:
                    instancePath + '/pricing/' + key41.replace(/~/g, '~0').replace(/\//g, '~1') + '/input_per_mtok',
                  schemaPath: '#/properties/pricing/additionalProperties/properties/input_per_mtok/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err314];
                } else {
                  vErrors.push(err314);
                }
                errors++;
              }
            }
            if (data163.output_per_mtok !== undefined) {
              let data165 = data163.output_per_mtok;
              if (typeof data165 == 'number') {
                if (data165 < 0 || isNaN(data165)) {
                  const err315 = {
                    instancePath:
                      instancePath + '/pricing/' + key41.replace(/~/g, '~0').replace(/\//g, '~1') + '/output_per_mtok',
                    schemaPath: '#/properties/pricing/additionalProperties/properties/output_per_mtok/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err315];
                  } else {
                    vErrors.push(err315);
                  }
                  errors++;
                }
              } else {
                const err316 = {
                  instancePath:
                    instancePath + '/pricing/' + key41.replace(/~/g, '~0').replace(/\//g, '~1') + '/output_per_mtok',
                  schemaPath: '#/properties/pricing/additionalProperties/properties/output_per_mtok/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err316];
                } else {
                  vErrors.push(err316);
                }
                errors++;
              }
            }
            if (data163.cached_input_per_mtok !== undefined) {
              let data166 = data163.cached_input_per_mtok;
              if (typeof data166 == 'number') {
                if (data166 < 0 || isNaN(data166)) {
                  const err317 = {
                    instancePath:
                      instancePath +
                      '/pricing/' +
                      key41.replace(/~/g, '~0').replace(/\//g, '~1') +
                      '/cached_input_per_mtok',
                    schemaPath: '#/properties/pricing/additionalProperties/properties/cached_input_per_mtok/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err317];
                  } else {
                    vErrors.push(err317);
                  }
                  errors++;
                }
              } else {
                const err318 = {
                  instancePath:
                    instancePath +
                    '/pricing/' +
                    key41.replace(/~/g, '~0').replace(/\//g, '~1') +
                    '/cached_input_per_mtok',
                  schemaPath: '#/properties/pricing/additionalProperties/properties/cached_input_per_mtok/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err318];
                } else {
                  vErrors.push(err318);
                }
                errors++;
              }
            }
          } else {
            const err319 = {
              instancePath: instancePath + '/pricing/' + key41.replace(/~/g, '~0').replace(/\//g, '~1'),
              schemaPath: '#/properties/pricing/additionalProperties/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err319];
            } else {
              vErrors.push(err319);
            }
            errors++;
          }
        }
      } else {
        const err320 = {
          instancePath: instancePath + '/pricing',
          schemaPath: '#/properties/pricing/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err320];
        } else {
          vErrors.push(err320);
        }
        errors++;
      }
    }
    if (data.allow_outside_root !== undefined) {
      if (typeof data.allow_outside_root !== 'boolean') {
        const err321 = {
          instancePath: instancePath + '/allow_outside_root',
          schemaPath: '#/properties/allow_outside_root/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err321];
        } else {
          vErrors.push(err321);
        }
        errors++;
      }
    }
    if (data.pii !== undefined) {
      let data168 = data.pii;
      if (data168 && typeof data168 == 'object' && !Array.isArray(data168)) {
        for (const key43 in data168) {
          if (!(key43 === 'redact' || key43 === 'custom' || key43 === 'restore_in_result')) {
            const err322 = {
              instancePath: instancePath + '/pii',
              schemaPath: '#/properties/pii/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key43 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err322];
            } else {
              vErrors.push(err322);
            }
            errors++;
          }
        }
        if (data168.redact !== undefined) {
          let data169 = data168.redact;
          if (Array.isArray(data169)) {
            const len12 = data169.length;
            for (let i17 = 0; i17 < len12; i17++) {
              let data170 = data169[i17];
              if (!(
                data170 === 'email' ||
                data170 === 'phone' ||
                data170 === 'credit_card' ||
                data170 === 'iban' ||
                data170 === 'national_id' ||
                data170 === 'ip_address' ||
                data170 === 'secret'
              )) {
                const err323 = {
                  instancePath: instancePath + '/pii/redact/' + i17,
                  schemaPath: '#/properties/pii/properties/redact/items/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.pii.properties.redact.items.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err323];
                } else {
                  vErrors.push(err323);
                }
                errors++;
              }
            }
            let i18 = data169.length;
            let j5;
            if (i18 > 1) {
              outer2: for (; i18--;) {
                for (j5 = i18; j5--;) {
                  if (func0(data169[i18], data169[j5])) {
                    const err324 = {
                      instancePath: instancePath + '/pii/redact',
                      schemaPath: '#/properties/pii/properties/redact/uniqueItems',
                      keyword: 'uniqueItems',
                      params: { i: i18, j: j5 },
                      message: 'must NOT have duplicate items (items ## ' + j5 + ' and ' + i18 + ' are identical)',
                    };
                    if (vErrors === null) {
                      vErrors = [err324];
                    } else {
                      vErrors.push(err324);
                    }
                    errors++;
                    break outer2;
                  }
                }
              }
            }
          } else {
            const err325 = {
              instancePath: instancePath + '/pii/redact',
              schemaPath: '#/properties/pii/properties/redact/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err325];
            } else {
              vErrors.push(err325);
            }
            errors++;
          }
        }
        if (data168.custom !== undefined) {
          let data171 = data168.custom;
          if (Array.isArray(data171)) {
            const len13 = data171.length;
            for (let i19 = 0; i19 < len13; i19++) {
              let data172 = data171[i19];
              if (data172 && typeof data172 == 'object' && !Array.isArray(data172)) {
                if (data172.name === undefined) {
                  const err326 = {
                    instancePath: instancePath + '/pii/custom/' + i19,
                    schemaPath: '#/properties/pii/properties/custom/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'name' },
                    message: "must have required property '" + 'name' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err326];
                  } else {
                    vErrors.push(err326);
                  }
                  errors++;
                }
                if (data172.pattern === undefined) {
                  const err327 = {
                    instancePath: instancePath + '/pii/custom/' + i19,
                    schemaPath: '#/properties/pii/properties/custom/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'pattern' },
                    message: "must have required property '" + 'pattern' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err327];
                  } else {
                    vErrors.push(err327);
                  }
                  errors++;
                }
                for (const key44 in data172) {
                  if (!(key44 === 'name' || key44 === 'pattern')) {
                    const err328 = {
                      instancePath: instancePath + '/pii/custom/' + i19,
                      schemaPath: '#/properties/pii/properties/custom/items/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key44 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err328];
                    } else {
                      vErrors.push(err328);
                    }
                    errors++;
                  }
                }
                if (data172.name !== undefined) {
                  let data173 = data172.name;
                  if (typeof data173 === 'string') {
                    if (!pattern14.test(data173)) {
                      const err329 = {
                        instancePath: instancePath + '/pii/custom/' + i19 + '/name',
                        schemaPath: '#/properties/pii/properties/custom/items/properties/name/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^[a-z][a-z0-9_]*$' },
                        message: 'must match pattern "' + '^[a-z][a-z0-9_]*$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err329];
                      } else {
                        vErrors.push(err329);
                      }
                      errors++;
                    }
                  } else {
                    const err330 = {
                      instancePath: instancePath + '/pii/custom/' + i19 + '/name',
                      schemaPath: '#/properties/pii/properties/custom/items/properties/name/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err330];
                    } else {
                      vErrors.push(err330);
                    }
                    errors++;
                  }
                }
                if (data172.pattern !== undefined) {
                  let data174 = data172.pattern;
                  if (typeof data174 === 'string') {
                    if (func3(data174) < 1) {
                      const err331 = {
                        instancePath: instancePath + '/pii/custom/' + i19 + '/pattern',
                        schemaPath: '#/properties/pii/properties/custom/items/properties/pattern/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err331];
                      } else {
                        vErrors.push(err331);
                      }
                      errors++;
                    }
                  } else {
                    const err332 = {
                      instancePath: instancePath + '/pii/custom/' + i19 + '/pattern',
                      schemaPath: '#/properties/pii/properties/custom/items/properties/pattern/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err332];
                    } else {
                      vErrors.push(err332);
                    }
                    errors++;
                  }
                }
              } else {
                const err333 = {
                  instancePath: instancePath + '/pii/custom/' + i19,
                  schemaPath: '#/properties/pii/properties/custom/items/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err333];
                } else {
                  vErrors.push(err333);
                }
                errors++;
              }
            }
          } else {
            const err334 = {
              instancePath: instancePath + '/pii/custom',
              schemaPath: '#/properties/pii/properties/custom/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err334];
            } else {
              vErrors.push(err334);
            }
            errors++;
          }
        }
        if (data168.restore_in_result !== undefined) {
          if (typeof data168.restore_in_result !== 'boolean') {
            const err335 = {
              instancePath: instancePath + '/pii/restore_in_result',
              schemaPath: '#/properties/pii/properties/restore_in_result/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err335];
            } else {
              vErrors.push(err335);
            }
            errors++;
          }
        }
      } else {
        const err336 = {
          instancePath: instancePath + '/pii',
          schemaPath: '#/properties/pii/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err336];
        } else {
          vErrors.push(err336);
        }
        errors++;
      }
    }
    if (data.privacy !== undefined) {
      let data176 = data.privacy;
      if (data176 && typeof data176 == 'object' && !Array.isArray(data176)) {
        for (const key45 in data176) {
          if (!(key45 === 'vault_key_file')) {
            const err337 = {
              instancePath: instancePath + '/privacy',
              schemaPath: '#/properties/privacy/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key45 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err337];
            } else {
              vErrors.push(err337);
            }
            errors++;
          }
        }
        if (data176.vault_key_file !== undefined) {
          let data177 = data176.vault_key_file;
          if (typeof data177 !== 'string' && data177 !== null) {
            const err338 = {
              instancePath: instancePath + '/privacy/vault_key_file',
              schemaPath: '#/properties/privacy/properties/vault_key_file/type',
              keyword: 'type',
              params: { type: schema11.properties.privacy.properties.vault_key_file.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err338];
            } else {
              vErrors.push(err338);
            }
            errors++;
          }
        }
      } else {
        const err339 = {
          instancePath: instancePath + '/privacy',
          schemaPath: '#/properties/privacy/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err339];
        } else {
          vErrors.push(err339);
        }
        errors++;
      }
    }
    if (data.guardrails !== undefined) {
      let data178 = data.guardrails;
      if (Array.isArray(data178)) {
        const len14 = data178.length;
        for (let i20 = 0; i20 < len14; i20++) {
          let data179 = data178[i20];
          if (!(data179 && typeof data179 == 'object' && !Array.isArray(data179))) {
            const err340 = {
              instancePath: instancePath + '/guardrails/' + i20,
              schemaPath: '#/properties/guardrails/items/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err340];
            } else {
              vErrors.push(err340);
            }
            errors++;
          }
        }
      } else {
        const err341 = {
          instancePath: instancePath + '/guardrails',
          schemaPath: '#/properties/guardrails/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err341];
        } else {
          vErrors.push(err341);
        }
        errors++;
      }
    }
    if (data.agents !== undefined) {
      let data180 = data.agents;
      if (data180 && typeof data180 == 'object' && !Array.isArray(data180)) {
        for (const key46 in data180) {
          if (!(key46 === 'claude_code_dir' || key46 === 'claude_code')) {
            let data181 = data180[key46];
            if (data181 && typeof data181 == 'object' && !Array.isArray(data181)) {
              if (data181.type === undefined) {
                const err342 = {
                  instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/agents/additionalProperties/required',
                  keyword: 'required',
                  params: { missingProperty: 'type' },
                  message: "must have required property '" + 'type' + "'",
                };
                if (vErrors === null) {
                  vErrors = [err342];
                } else {
                  vErrors.push(err342);
                }
                errors++;
              }
              if (data181.description === undefined) {
                const err343 = {
                  instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/agents/additionalProperties/required',
                  keyword: 'required',
                  params: { missingProperty: 'description' },
                  message: "must have required property '" + 'description' + "'",
                };
                if (vErrors === null) {
                  vErrors = [err343];
                } else {
                  vErrors.push(err343);
                }
                errors++;
              }
              for (const key47 in data181) {
                if (!func2.call(schema11.properties.agents.additionalProperties.properties, key47)) {
                  const err344 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1'),
                    schemaPath: '#/properties/agents/additionalProperties/additionalProperties',
                    keyword: 'additionalProperties',
                    params: { additionalProperty: key47 },
                    message: 'must NOT have additional properties',
                  };
                  if (vErrors === null) {
                    vErrors = [err344];
                  } else {
                    vErrors.push(err344);
                  }
                  errors++;
                }
              }
              if (data181.name !== undefined) {
                let data182 = data181.name;
                if (typeof data182 === 'string') {
                  if (!pattern14.test(data182)) {
                    const err345 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/name',
                      schemaPath: '#/properties/agents/additionalProperties/properties/name/pattern',
                      keyword: 'pattern',
                      params: { pattern: '^[a-z][a-z0-9_]*$' },
                      message: 'must match pattern "' + '^[a-z][a-z0-9_]*$' + '"',
                    };
                    if (vErrors === null) {
                      vErrors = [err345];
                    } else {
                      vErrors.push(err345);
                    }
                    errors++;
                  }
                } else {
                  const err346 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/name',
                    schemaPath: '#/properties/agents/additionalProperties/properties/name/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err346];
                  } else {
                    vErrors.push(err346);
                  }
                  errors++;
                }
              }
              if (data181.type !== undefined) {
                let data183 = data181.type;
                if (!(data183 === 'governance' || data183 === 'operational' || data183 === 'executional')) {
                  const err347 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/type',
                    schemaPath: '#/properties/agents/additionalProperties/properties/type/enum',
                    keyword: 'enum',
                    params: { allowedValues: schema11.properties.agents.additionalProperties.properties.type.enum },
                    message: 'must be equal to one of the allowed values',
                  };
                  if (vErrors === null) {
                    vErrors = [err347];
                  } else {
                    vErrors.push(err347);
                  }
                  errors++;
                }
              }
              if (data181.description !== undefined) {
                let data184 = data181.description;
                if (typeof data184 === 'string') {
                  if (func3(data184) < 1) {
                    const err348 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/description',
                      schemaPath: '#/properties/agents/additionalProperties/properties/description/minLength',
                      keyword: 'minLength',
                      params: { limit: 1 },
                      message: 'must NOT have fewer than 1 characters',
                    };
                    if (vErrors === null) {
                      vErrors = [err348];
                    } else {
                      vErrors.push(err348);
                    }
                    errors++;
                  }
                } else {
                  const err349 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/description',
                    schemaPath: '#/properties/agents/additionalProperties/properties/description/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err349];
                  } else {
                    vErrors.push(err349);
                  }
                  errors++;
                }
              }
              if (data181.entry !== undefined) {
                if (typeof data181.entry !== 'boolean') {
                  const err350 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/entry',
                    schemaPath: '#/properties/agents/additionalProperties/properties/entry/type',
                    keyword: 'type',
                    params: { type: 'boolean' },
                    message: 'must be boolean',
                  };
                  if (vErrors === null) {
                    vErrors = [err350];
                  } else {
                    vErrors.push(err350);
                  }
                  errors++;
                }
              }
              if (data181.next !== undefined) {
                let data186 = data181.next;
                if (!Array.isArray(data186) && data186 !== null) {
                  const err351 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/next',
                    schemaPath: '#/properties/agents/additionalProperties/properties/next/type',
                    keyword: 'type',
                    params: { type: schema11.properties.agents.additionalProperties.properties.next.type },
                    message: 'must be array,null',
                  };
                  if (vErrors === null) {
                    vErrors = [err351];
                  } else {
                    vErrors.push(err351);
                  }
                  errors++;
                }
                if (Array.isArray(data186)) {
                  const len15 = data186.length;
                  for (let i21 = 0; i21 < len15; i21++) {
                    if (typeof data186[i21] !== 'string') {
                      const err352 = {
                        instancePath:
                          instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/next/' + i21,
                        schemaPath: '#/properties/agents/additionalProperties/properties/next/items/type',
                        keyword: 'type',
                        params: { type: 'string' },
                        message: 'must be string',
                      };
                      if (vErrors === null) {
                        vErrors = [err352];
                      } else {
                        vErrors.push(err352);
                      }
                      errors++;
                    }
                  }
                  let i22 = data186.length;
                  let j6;
                  if (i22 > 1) {
                    const indices3 = {};
                    for (; i22--;) {
                      let item3 = data186[i22];
                      if (typeof item3 !== 'string') {
                        continue;
                      }
                      if (typeof indices3[item3] == 'number') {
                        j6 = indices3[item3];
                        const err353 = {
                          instancePath:
                            instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/next',
                          schemaPath: '#/properties/agents/additionalProperties/properties/next/uniqueItems',
                          keyword: 'uniqueItems',
                          params: { i: i22, j: j6 },
                          message: 'must NOT have duplicate items (items ## ' + j6 + ' and ' + i22 + ' are identical)',
                        };
                        if (vErrors === null) {
                          vErrors = [err353];
                        } else {
                          vErrors.push(err353);
                        }
                        errors++;
                        break;
                      }
                      indices3[item3] = i22;
                    }
                  }
                }
              }
              if (data181.content_type !== undefined) {
                let data188 = data181.content_type;
                if (typeof data188 === 'string') {
                  if (func3(data188) < 1) {
                    const err354 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/content_type',
                      schemaPath: '#/properties/agents/additionalProperties/properties/content_type/minLength',
                      keyword: 'minLength',
                      params: { limit: 1 },
                      message: 'must NOT have fewer than 1 characters',
                    };
                    if (vErrors === null) {
                      vErrors = [err354];
                    } else {
                      vErrors.push(err354);
                    }
                    errors++;
                  }
                } else {
                  const err355 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/content_type',
                    schemaPath: '#/properties/agents/additionalProperties/properties/content_type/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err355];
                  } else {
                    vErrors.push(err355);
                  }
                  errors++;
                }
              }
              if (data181.output_schema !== undefined) {
                let data189 = data181.output_schema;
                if (
                  typeof data189 !== 'string' &&
                  !(data189 && typeof data189 == 'object' && !Array.isArray(data189))
                ) {
                  const err356 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/output_schema',
                    schemaPath: '#/properties/agents/additionalProperties/properties/output_schema/type',
                    keyword: 'type',
                    params: { type: schema11.properties.agents.additionalProperties.properties.output_schema.type },
                    message: 'must be string,object',
                  };
                  if (vErrors === null) {
                    vErrors = [err356];
                  } else {
                    vErrors.push(err356);
                  }
                  errors++;
                }
              }
              if (data181.plan !== undefined) {
                if (typeof data181.plan !== 'boolean') {
                  const err357 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/plan',
                    schemaPath: '#/properties/agents/additionalProperties/properties/plan/type',
                    keyword: 'type',
                    params: { type: 'boolean' },
                    message: 'must be boolean',
                  };
                  if (vErrors === null) {
                    vErrors = [err357];
                  } else {
                    vErrors.push(err357);
                  }
                  errors++;
                }
              }
              if (data181.on_failure !== undefined) {
                if (typeof data181.on_failure !== 'string') {
                  const err358 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/on_failure',
                    schemaPath: '#/properties/agents/additionalProperties/properties/on_failure/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err358];
                  } else {
                    vErrors.push(err358);
                  }
                  errors++;
                }
              }
              if (data181.model !== undefined) {
                let data192 = data181.model;
                if (typeof data192 === 'string') {
                  if (func3(data192) < 1) {
                    const err359 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/model',
                      schemaPath: '#/properties/agents/additionalProperties/properties/model/minLength',
                      keyword: 'minLength',
                      params: { limit: 1 },
                      message: 'must NOT have fewer than 1 characters',
                    };
                    if (vErrors === null) {
                      vErrors = [err359];
                    } else {
                      vErrors.push(err359);
                    }
                    errors++;
                  }
                } else {
                  const err360 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/model',
                    schemaPath: '#/properties/agents/additionalProperties/properties/model/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err360];
                  } else {
                    vErrors.push(err360);
                  }
                  errors++;
                }
              }
              if (data181.temperature !== undefined) {
                let data193 = data181.temperature;
                if (typeof data193 == 'number') {
                  if (data193 > 2 || isNaN(data193)) {
                    const err361 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/temperature',
                      schemaPath: '#/properties/agents/additionalProperties/properties/temperature/maximum',
                      keyword: 'maximum',
                      params: { comparison: '<=', limit: 2 },
                      message: 'must be <= 2',
                    };
                    if (vErrors === null) {
                      vErrors = [err361];
                    } else {
                      vErrors.push(err361);
                    }
                    errors++;
                  }
                  if (data193 < 0 || isNaN(data193)) {
                    const err362 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/temperature',
                      schemaPath: '#/properties/agents/additionalProperties/properties/temperature/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 0 },
                      message: 'must be >= 0',
                    };
                    if (vErrors === null) {
                      vErrors = [err362];
                    } else {
                      vErrors.push(err362);
                    }
                    errors++;
                  }
                } else {
                  const err363 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/temperature',
                    schemaPath: '#/properties/agents/additionalProperties/properties/temperature/type',
                    keyword: 'type',
                    params: { type: 'number' },
                    message: 'must be number',
                  };
                  if (vErrors === null) {
                    vErrors = [err363];
                  } else {
                    vErrors.push(err363);
                  }
                  errors++;
                }
              }
              if (data181.max_tokens !== undefined) {
                let data194 = data181.max_tokens;
                if (!(typeof data194 == 'number' && !(data194 % 1) && !isNaN(data194))) {
                  const err364 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_tokens',
                    schemaPath: '#/properties/agents/additionalProperties/properties/max_tokens/type',
                    keyword: 'type',
                    params: { type: 'integer' },
                    message: 'must be integer',
                  };
                  if (vErrors === null) {
                    vErrors = [err364];
                  } else {
                    vErrors.push(err364);
                  }
                  errors++;
                }
                if (typeof data194 == 'number') {
                  if (data194 < 1 || isNaN(data194)) {
                    const err365 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_tokens',
                      schemaPath: '#/properties/agents/additionalProperties/properties/max_tokens/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 1 },
                      message: 'must be >= 1',
                    };
                    if (vErrors === null) {
                      vErrors = [err365];
                    } else {
                      vErrors.push(err365);
                    }
                    errors++;
                  }
                }
              }
              if (data181.timeout_ms !== undefined) {
                let data195 = data181.timeout_ms;
                if (!(typeof data195 == 'number' && !(data195 % 1) && !isNaN(data195))) {
                  const err366 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/timeout_ms',
                    schemaPath: '#/properties/agents/additionalProperties/properties/timeout_ms/type',
                    keyword: 'type',
                    params: { type: 'integer' },
                    message: 'must be integer',
                  };
                  if (vErrors === null) {
                    vErrors = [err366];
                  } else {
                    vErrors.push(err366);
                  }
                  errors++;
                }
                if (typeof data195 == 'number') {
                  if (data195 < 1 || isNaN(data195)) {
                    const err367 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/timeout_ms',
                      schemaPath: '#/properties/agents/additionalProperties/properties/timeout_ms/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 1 },
                      message: 'must be >= 1',
                    };
                    if (vErrors === null) {
                      vErrors = [err367];
                    } else {
                      vErrors.push(err367);
                    }
                    errors++;
                  }
                }
              }
              if (data181.max_retries !== undefined) {
                let data196 = data181.max_retries;
                if (!(typeof data196 == 'number' && !(data196 % 1) && !isNaN(data196))) {
                  const err368 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_retries',
                    schemaPath: '#/properties/agents/additionalProperties/properties/max_retries/type',
                    keyword: 'type',
                    params: { type: 'integer' },
                    message: 'must be integer',
                  };
                  if (vErrors === null) {
                    vErrors = [err368];
                  } else {
                    vErrors.push(err368);
                  }
                  errors++;
                }
                if (typeof data196 == 'number') {
                  if (data196 < 0 || isNaN(data196)) {
                    const err369 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_retries',
                      schemaPath: '#/properties/agents/additionalProperties/properties/max_retries/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 0 },
                      message: 'must be >= 0',
                    };
                    if (vErrors === null) {
                      vErrors = [err369];
                    } else {
                      vErrors.push(err369);
                    }
                    errors++;
                  }
                }
              }
              if (data181.file !== undefined) {
                if (typeof data181.file !== 'string') {
                  const err370 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/file',
                    schemaPath: '#/properties/agents/additionalProperties/properties/file/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err370];
                  } else {
                    vErrors.push(err370);
                  }
                  errors++;
                }
              }
              if (data181.tools !== undefined) {
                let data198 = data181.tools;
                if (Array.isArray(data198)) {
                  const len16 = data198.length;
                  for (let i23 = 0; i23 < len16; i23++) {
                    let data199 = data198[i23];
                    if (typeof data199 === 'string') {
                      if (func3(data199) < 1) {
                        const err371 = {
                          instancePath:
                            instancePath +
                            '/agents/' +
                            key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/tools/' +
                            i23,
                          schemaPath: '#/properties/agents/additionalProperties/properties/tools/items/minLength',
                          keyword: 'minLength',
                          params: { limit: 1 },
                          message: 'must NOT have fewer than 1 characters',
                        };
                        if (vErrors === null) {
                          vErrors = [err371];
                        } else {
                          vErrors.push(err371);
                        }
                        errors++;
                      }
                    } else {
                      const err372 = {
                        instancePath:
                          instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/tools/' + i23,
                        schemaPath: '#/properties/agents/additionalProperties/properties/tools/items/type',
                        keyword: 'type',
                        params: { type: 'string' },
                        message: 'must be string',
                      };
                      if (vErrors === null) {
                        vErrors = [err372];
                      } else {
                        vErrors.push(err372);
                      }
                      errors++;
                    }
                  }
                  let i24 = data198.length;
                  let j7;
                  if (i24 > 1) {
                    const indices4 = {};
                    for (; i24--;) {
                      let item4 = data198[i24];
                      if (typeof item4 !== 'string') {
                        continue;
                      }
                      if (typeof indices4[item4] == 'number') {
                        j7 = indices4[item4];
                        const err373 = {
                          instancePath:
                            instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/tools',
                          schemaPath: '#/properties/agents/additionalProperties/properties/tools/uniqueItems',
                          keyword: 'uniqueItems',
                          params: { i: i24, j: j7 },
                          message: 'must NOT have duplicate items (items ## ' + j7 + ' and ' + i24 + ' are identical)',
                        };
                        if (vErrors === null) {
                          vErrors = [err373];
                        } else {
                          vErrors.push(err373);
                        }
                        errors++;
                        break;
                      }
                      indices4[item4] = i24;
                    }
                  }
                } else {
                  const err374 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/tools',
                    schemaPath: '#/properties/agents/additionalProperties/properties/tools/type',
                    keyword: 'type',
                    params: { type: 'array' },
                    message: 'must be array',
                  };
                  if (vErrors === null) {
                    vErrors = [err374];
                  } else {
                    vErrors.push(err374);
                  }
                  errors++;
                }
              }
              if (data181.max_turns !== undefined) {
                let data200 = data181.max_turns;
                if (!(typeof data200 == 'number' && !(data200 % 1) && !isNaN(data200))) {
                  const err375 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_turns',
                    schemaPath: '#/properties/agents/additionalProperties/properties/max_turns/type',
                    keyword: 'type',
                    params: { type: 'integer' },
                    message: 'must be integer',
                  };
                  if (vErrors === null) {
                    vErrors = [err375];
                  } else {
                    vErrors.push(err375);
                  }
                  errors++;
                }
                if (typeof data200 == 'number') {
                  if (data200 < 1 || isNaN(data200)) {
                    const err376 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_turns',
                      schemaPath: '#/properties/agents/additionalProperties/properties/max_turns/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 1 },
                      message: 'must be >= 1',
                    };
                    if (vErrors === null) {
                      vErrors = [err376];
                    } else {
                      vErrors.push(err376);
                    }
                    errors++;
                  }
                }
              }
              if (data181.approval !== undefined) {
                let data201 = data181.approval;
                if (Array.isArray(data201)) {
                  const len17 = data201.length;
                  for (let i25 = 0; i25 < len17; i25++) {
                    let data202 = data201[i25];
                    if (typeof data202 === 'string') {
                      if (func3(data202) < 1) {
                        const err377 = {
                          instancePath:
                            instancePath +
                            '/agents/' +
                            key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/approval/' +
                            i25,
                          schemaPath: '#/properties/agents/additionalProperties/properties/approval/items/minLength',
                          keyword: 'minLength',
                          params: { limit: 1 },
                          message: 'must NOT have fewer than 1 characters',
                        };
                        if (vErrors === null) {
                          vErrors = [err377];
                        } else {
                          vErrors.push(err377);
                        }
                        errors++;
                      }
                    } else {
                      const err378 = {
                        instancePath:
                          instancePath +
                          '/agents/' +
                          key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                          '/approval/' +
                          i25,
                        schemaPath: '#/properties/agents/additionalProperties/properties/approval/items/type',
                        keyword: 'type',
                        params: { type: 'string' },
                        message: 'must be string',
                      };
                      if (vErrors === null) {
                        vErrors = [err378];
                      } else {
                        vErrors.push(err378);
                      }
                      errors++;
                    }
                  }
                  let i26 = data201.length;
                  let j8;
                  if (i26 > 1) {
                    const indices5 = {};
                    for (; i26--;) {
                      let item5 = data201[i26];
                      if (typeof item5 !== 'string') {
                        continue;
                      }
                      if (typeof indices5[item5] == 'number') {
                        j8 = indices5[item5];
                        const err379 = {
                          instancePath:
                            instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/approval',
                          schemaPath: '#/properties/agents/additionalProperties/properties/approval/uniqueItems',
                          keyword: 'uniqueItems',
                          params: { i: i26, j: j8 },
                          message: 'must NOT have duplicate items (items ## ' + j8 + ' and ' + i26 + ' are identical)',
                        };
                        if (vErrors === null) {
                          vErrors = [err379];
                        } else {
                          vErrors.push(err379);
                        }
                        errors++;
                        break;
                      }
                      indices5[item5] = i26;
                    }
                  }
                } else {
                  const err380 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/approval',
                    schemaPath: '#/properties/agents/additionalProperties/properties/approval/type',
                    keyword: 'type',
                    params: { type: 'array' },
                    message: 'must be array',
                  };
                  if (vErrors === null) {
                    vErrors = [err380];
                  } else {
                    vErrors.push(err380);
                  }
                  errors++;
                }
              }
              if (data181.delegates !== undefined) {
                let data203 = data181.delegates;
                if (Array.isArray(data203)) {
                  const len18 = data203.length;
                  for (let i27 = 0; i27 < len18; i27++) {
                    let data204 = data203[i27];
                    if (typeof data204 === 'string') {
                      if (func3(data204) < 1) {
                        const err381 = {
                          instancePath:
                            instancePath +
                            '/agents/' +
                            key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/delegates/' +
                            i27,
                          schemaPath: '#/properties/agents/additionalProperties/properties/delegates/items/minLength',
                          keyword: 'minLength',
                          params: { limit: 1 },
                          message: 'must NOT have fewer than 1 characters',
                        };
                        if (vErrors === null) {
                          vErrors = [err381];
                        } else {
                          vErrors.push(err381);
                        }
                        errors++;
                      }
                    } else {
                      const err382 = {
                        instancePath:
                          instancePath +
                          '/agents/' +
                          key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                          '/delegates/' +
                          i27,
                        schemaPath: '#/properties/agents/additionalProperties/properties/delegates/items/type',
                        keyword: 'type',
                        params: { type: 'string' },
                        message: 'must be string',
                      };
                      if (vErrors === null) {
                        vErrors = [err382];
                      } else {
                        vErrors.push(err382);
                      }
                      errors++;
                    }
                  }
                  let i28 = data203.length;
                  let j9;
                  if (i28 > 1) {
                    const indices6 = {};
                    for (; i28--;) {
                      let item6 = data203[i28];
                      if (typeof item6 !== 'string') {
                        continue;
                      }
                      if (typeof indices6[item6] == 'number') {
                        j9 = indices6[item6];
                        const err383 = {
                          instancePath:
                            instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/delegates',
                          schemaPath: '#/properties/agents/additionalProperties/properties/delegates/uniqueItems',
                          keyword: 'uniqueItems',
                          params: { i: i28, j: j9 },
                          message: 'must NOT have duplicate items (items ## ' + j9 + ' and ' + i28 + ' are identical)',
                        };
                        if (vErrors === null) {
                          vErrors = [err383];
                        } else {
                          vErrors.push(err383);
                        }
                        errors++;
                        break;
                      }
                      indices6[item6] = i28;
                    }
                  }
                } else {
                  const err384 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/delegates',
                    schemaPath: '#/properties/agents/additionalProperties/properties/delegates/type',
                    keyword: 'type',
                    params: { type: 'array' },
                    message: 'must be array',
                  };
                  if (vErrors === null) {
                    vErrors = [err384];
                  } else {
                    vErrors.push(err384);
                  }
                  errors++;
                }
              }
              if (data181.attachments !== undefined) {
                let data205 = data181.attachments;
                if (!(data205 === 'inline' || data205 === 'list' || data205 === 'native')) {
                  const err385 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/attachments',
                    schemaPath: '#/properties/agents/additionalProperties/properties/attachments/enum',
                    keyword: 'enum',
                    params: {
                      allowedValues: schema11.properties.agents.additionalProperties.properties.attachments.enum,
                    },
                    message: 'must be equal to one of the allowed values',
                  };
                  if (vErrors === null) {
                    vErrors = [err385];
                  } else {
                    vErrors.push(err385);
                  }
                  errors++;
                }
              }
              if (data181.routes !== undefined) {
                let data206 = data181.routes;
                if (Array.isArray(data206)) {
                  const len19 = data206.length;
                  for (let i29 = 0; i29 < len19; i29++) {
                    let data207 = data206[i29];
                    if (data207 && typeof data207 == 'object' && !Array.isArray(data207)) {
                      if (data207.to === undefined) {
                        const err386 = {
                          instancePath:
                            instancePath +
                            '/agents/' +
                            key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/routes/' +
                            i29,
                          schemaPath: '#/properties/agents/additionalProperties/properties/routes/items/required',
                          keyword: 'required',
                          params: { missingProperty: 'to' },
                          message: "must have required property '" + 'to' + "'",
                        };
                        if (vErrors === null) {
                          vErrors = [err386];
                        } else {
                          vErrors.push(err386);
                        }
                        errors++;
                      }
                      for (const key48 in data207) {
                        if (!(key48 === 'when' || key48 === 'to')) {
                          const err387 = {
                            instancePath:
                              instancePath +
                              '/agents/' +
                              key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                              '/routes/' +
                              i29,
                            schemaPath:
                              '#/properties/agents/additionalProperties/properties/routes/items/additionalProperties',
                            keyword: 'additionalProperties',
                            params: { additionalProperty: key48 },
                            message: 'must NOT have additional properties',
                          };
                          if (vErrors === null) {
                            vErrors = [err387];
                          } else {
                            vErrors.push(err387);
                          }
                          errors++;
                        }
                      }
                      if (data207.when !== undefined) {
                        let data208 = data207.when;
                        if (typeof data208 === 'string') {
                          if (func3(data208) < 1) {
                            const err388 = {
                              instancePath:
                                instancePath +
                                '/agents/' +
                                key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                                '/routes/' +
                                i29 +
                                '/when',
                              schemaPath:
                                '#/properties/agents/additionalProperties/properties/routes/items/properties/when/minLength',
                              keyword: 'minLength',
                              params: { limit: 1 },
                              message: 'must NOT have fewer than 1 characters',
                            };
                            if (vErrors === null) {
                              vErrors = [err388];
                            } else {
                              vErrors.push(err388);
                            }
                            errors++;
                          }
                        } else {
                          const err389 = {
                            instancePath:
                              instancePath +
                              '/agents/' +
                              key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                              '/routes/' +
                              i29 +
                              '/when',
                            schemaPath:
                              '#/properties/agents/additionalProperties/properties/routes/items/properties/when/type',
                            keyword: 'type',
                            params: { type: 'string' },
                            message: 'must be string',
                          };
                          if (vErrors === null) {
                            vErrors = [err389];
                          } else {
                            vErrors.push(err389);
                          }
                          errors++;
                        }
                      }
                      if (data207.to !== undefined) {
                        let data209 = data207.to;
                        if (typeof data209 !== 'string' && data209 !== null) {
                          const err390 = {
                            instancePath:
                              instancePath +
                              '/agents/' +
                              key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                              '/routes/' +
                              i29 +
                              '/to',
                            schemaPath:
                              '#/properties/agents/additionalProperties/properties/routes/items/properties/to/type',
                            keyword: 'type',
                            params: {
                              type: schema11.properties.agents.additionalProperties.properties.routes.items.properties
                                .to.type,
                            },
                            message: 'must be string,null',
                          };
                          if (vErrors === null) {
                            vErrors = [err390];
                          } else {
                            vErrors.push(err390);
                          }
                          errors++;
                        }
                        if (typeof data209 === 'string') {
                          if (func3(data209) < 1) {
                            const err391 = {
                              instancePath:
                                instancePath +
                                '/agents/' +
                                key46.replace(/~/g, '~0').replace(/\//g, '~1') +
                                '/routes/' +
                                i29 +
                                '/to',
                              schemaPath:
                                '#/properties/agents/additionalProperties/properties/routes/items/properties/to/minLength',
                              keyword: 'minLength',
                              params: { limit: 1 },
                              message: 'must NOT have fewer than 1 characters',
                            };
                            if (vErrors === null) {
                              vErrors = [err391];
                            } else {
                              vErrors.push(err391);
                            }
                            errors++;
                          }
                        }
                      }
                    } else {
                      const err392 = {
                        instancePath:
                          instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/routes/' + i29,
                        schemaPath: '#/properties/agents/additionalProperties/properties/routes/items/type',
                        keyword: 'type',
                        params: { type: 'object' },
                        message: 'must be object',
                      };
                      if (vErrors === null) {
                        vErrors = [err392];
                      } else {
                        vErrors.push(err392);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err393 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/routes',
                    schemaPath: '#/properties/agents/additionalProperties/properties/routes/type',
                    keyword: 'type',
                    params: { type: 'array' },
                    message: 'must be array',
                  };
                  if (vErrors === null) {
                    vErrors = [err393];
                  } else {
                    vErrors.push(err393);
                  }
                  errors++;
                }
              }
              if (data181.input !== undefined) {
                let data210 = data181.input;
                if (typeof data210 === 'string') {
                  if (func3(data210) < 1) {
                    const err394 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/input',
                      schemaPath: '#/properties/agents/additionalProperties/properties/input/minLength',
                      keyword: 'minLength',
                      params: { limit: 1 },
                      message: 'must NOT have fewer than 1 characters',
                    };
                    if (vErrors === null) {
                      vErrors = [err394];
                    } else {
                      vErrors.push(err394);
                    }
                    errors++;
                  }
                } else {
                  const err395 = {
                    instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/input',
                    schemaPath: '#/properties/agents/additionalProperties/properties/input/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err395];
                  } else {
                    vErrors.push(err395);
                  }
                  errors++;
                }
              }
              if (data181.answer !== undefined) {
                let data211 = data181.answer;
                if (typeof data211 === 'string') {
                  if (func3(data211) < 1) {
                    const err396 = {
                      instancePath:
                        instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/answer',
                      schemaPath: '#/properties/agents/additionalProperties/properties/answer/minLength',
                      keyword: 'minLength',
                      params: { limit: 1 },
                      message: 'must NOT have fewer than 1 characters',
                    };
                    if (vErrors === null) {
                      vErrors = [err396];
                    } else {
                      vErrors.push(err396);
                    }
                    errors++;
                  }
                } else {
                  const err397 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/answer',
                    schemaPath: '#/properties/agents/additionalProperties/properties/answer/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err397];
                  } else {
                    vErrors.push(err397);
                  }
                  errors++;
                }
              }
              if (data181.protocol !== undefined) {
                let data212 = data181.protocol;
                if (!(data212 === 'sentient' || data212 === 'none')) {
                  const err398 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/protocol',
                    schemaPath: '#/properties/agents/additionalProperties/properties/protocol/enum',
                    keyword: 'enum',
                    params: { allowedValues: schema11.properties.agents.additionalProperties.properties.protocol.enum },
                    message: 'must be equal to one of the allowed values',
                  };
                  if (vErrors === null) {
                    vErrors = [err398];
                  } else {
                    vErrors.push(err398);
                  }
                  errors++;
                }
              }
              if (data181.message_format !== undefined) {
                let data213 = data181.message_format;
                if (!(data213 === 'sentient' || data213 === 'sacp')) {
                  const err399 = {
                    instancePath:
                      instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1') + '/message_format',
                    schemaPath: '#/properties/agents/additionalProperties/properties/message_format/enum',
                    keyword: 'enum',
                    params: {
                      allowedValues: schema11.properties.agents.additionalProperties.properties.message_format.enum,
                    },
                    message: 'must be equal to one of the allowed values',
                  };
                  if (vErrors === null) {
                    vErrors = [err399];
                  } else {
                    vErrors.push(err399);
                  }
                  errors++;
                }
              }
            } else {
              const err400 = {
                instancePath: instancePath + '/agents/' + key46.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/agents/additionalProperties/type',
                keyword: 'type',
                params: { type: 'object' },
                message: 'must be object',
              };
              if (vErrors === null) {
                vErrors = [err400];
              } else {
                vErrors.push(err400);
              }
              errors++;
            }
          }
        }
        if (data180.claude_code_dir !== undefined) {
          let data214 = data180.claude_code_dir;
          if (typeof data214 !== 'string' && data214 !== null) {
            const err401 = {
              instancePath: instancePath + '/agents/claude_code_dir',
              schemaPath: '#/properties/agents/properties/claude_code_dir/type',
              keyword: 'type',
              params: { type: schema11.properties.agents.properties.claude_code_dir.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err401];
            } else {
              vErrors.push(err401);
            }
            errors++;
          }
        }
        if (data180.claude_code !== undefined) {
          let data215 = data180.claude_code;
          if (data215 && typeof data215 == 'object' && !Array.isArray(data215)) {
            for (const key49 in data215) {
              if (!(key49 === 'unknown_tools')) {
                const err402 = {
                  instancePath: instancePath + '/agents/claude_code',
                  schemaPath: '#/properties/agents/properties/claude_code/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key49 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err402];
                } else {
                  vErrors.push(err402);
                }
                errors++;
              }
            }
            if (data215.unknown_tools !== undefined) {
              let data216 = data215.unknown_tools;
              if (!(data216 === 'warn' || data216 === 'error')) {
                const err403 = {
                  instancePath: instancePath + '/agents/claude_code/unknown_tools',
                  schemaPath: '#/properties/agents/properties/claude_code/properties/unknown_tools/enum',
                  keyword: 'enum',
                  params: {
                    allowedValues: schema11.properties.agents.properties.claude_code.properties.unknown_tools.enum,
                  },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err403];
                } else {
                  vErrors.push(err403);
                }
                errors++;
              }
            }
          } else {
            const err404 = {
              instancePath: instancePath + '/agents/claude_code',
              schemaPath: '#/properties/agents/properties/claude_code/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err404];
            } else {
              vErrors.push(err404);
            }
            errors++;
          }
        }
      } else {
        const err405 = {
          instancePath: instancePath + '/agents',
          schemaPath: '#/properties/agents/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err405];
        } else {
          vErrors.push(err405);
        }
        errors++;
      }
    }
  } else {
    const err406 = {
      instancePath,
      schemaPath: '#/type',
      keyword: 'type',
      params: { type: 'object' },
      message: 'must be object',
    };
    if (vErrors === null) {
      vErrors = [err406];
    } else {
      vErrors.push(err406);
    }
    errors++;
  }
  validate10.errors = vErrors;
  return errors === 0;
}
export const agentDeclaration = validate11;
const schema12 = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'description'],
  properties: {
    name: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    type: { enum: ['governance', 'operational', 'executional'] },
    description: { type: 'string', minLength: 1 },
    entry: { type: 'boolean' },
    next: { type: ['array', 'null'], items: { type: 'string' }, uniqueItems: true },
    content_type: { type: 'string', minLength: 1 },
    output_schema: { type: ['string', 'object'] },
    plan: { type: 'boolean' },
    on_failure: { type: 'string' },
    model: { type: 'string', minLength: 1 },
    temperature: { type: 'number', minimum: 0, maximum: 2 },
    max_tokens: { type: 'integer', minimum: 1 },
    timeout_ms: { type: 'integer', minimum: 1 },
    max_retries: { type: 'integer', minimum: 0 },
    file: { type: 'string' },
    tools: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    max_turns: { type: 'integer', minimum: 1 },
    approval: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    delegates: { type: 'array', items: { type: 'string', minLength: 1 }, uniqueItems: true },
    attachments: { enum: ['inline', 'list', 'native'] },
    routes: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['to'],
        properties: { when: { type: 'string', minLength: 1 }, to: { type: ['string', 'null'], minLength: 1 } },
      },
    },
    input: { type: 'string', minLength: 1 },
    answer: { type: 'string', minLength: 1 },
    protocol: { enum: ['sentient', 'none'] },
    message_format: { enum: ['sentient', 'sacp'] },
  },
};
function validate11(data, { instancePath = '', parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (data && typeof data == 'object' && !Array.isArray(data)) {
    if (data.name === undefined) {
      const err0 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'name' },
        message: "must have required property '" + 'name' + "'",
      };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.type === undefined) {
      const err1 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'type' },
        message: "must have required property '" + 'type' + "'",
      };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.description === undefined) {
      const err2 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'description' },
        message: "must have required property '" + 'description' + "'",
      };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!func2.call(schema12.properties, key0)) {
        const err3 = {
          instancePath,
          schemaPath: '#/additionalProperties',
          keyword: 'additionalProperties',
          params: { additionalProperty: key0 },
          message: 'must NOT have additional properties',
        };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
    }
    if (data.name !== undefined) {
      let data0 = data.name;
      if (typeof data0 === 'string') {
        if (!pattern14.test(data0)) {
          const err4 = {
            instancePath: instancePath + '/name',
            schemaPath: '#/properties/name/pattern',
            keyword: 'pattern',
            params: { pattern: '^[a-z][a-z0-9_]*$' },
            message: 'must match pattern "' + '^[a-z][a-z0-9_]*$' + '"',
          };
          if (vErrors === null) {
            vErrors = [err4];
          } else {
            vErrors.push(err4);
          }
          errors++;
        }
      } else {
        const err5 = {
          instancePath: instancePath + '/name',
          schemaPath: '#/properties/name/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.type !== undefined) {
      let data1 = data.type;
      if (!(data1 === 'governance' || data1 === 'operational' || data1 === 'executional')) {
        const err6 = {
          instancePath: instancePath + '/type',
          schemaPath: '#/properties/type/enum',
          keyword: 'enum',
          params: { allowedValues: schema12.properties.type.enum },
          message: 'must be equal to one of the allowed values',
        };
        if (vErrors === null) {
          vErrors = [err6];
        } else {
          vErrors.push(err6);
        }
        errors++;
      }
    }
    if (data.description !== undefined) {
      let data2 = data.description;
      if (typeof data2 === 'string') {
        if (func3(data2) < 1) {
          const err7 = {
            instancePath: instancePath + '/description',
            schemaPath: '#/properties/description/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err7];
          } else {
            vErrors.push(err7);
          }
          errors++;
        }
      } else {
        const err8 = {
          instancePath: instancePath + '/description',
          schemaPath: '#/properties/description/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err8];
        } else {
          vErrors.push(err8);
        }
        errors++;
      }
    }
    if (data.entry !== undefined) {
      if (typeof data.entry !== 'boolean') {
        const err9 = {
          instancePath: instancePath + '/entry',
          schemaPath: '#/properties/entry/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err9];
        } else {
          vErrors.push(err9);
        }
        errors++;
      }
    }
    if (data.next !== undefined) {
      let data4 = data.next;
      if (!Array.isArray(data4) && data4 !== null) {
        const err10 = {
          instancePath: instancePath + '/next',
          schemaPath: '#/properties/next/type',
          keyword: 'type',
          params: { type: schema12.properties.next.type },
          message: 'must be array,null',
        };
        if (vErrors === null) {
          vErrors = [err10];
        } else {
          vErrors.push(err10);
        }
        errors++;
      }
      if (Array.isArray(data4)) {
        const len0 = data4.length;
        for (let i0 = 0; i0 < len0; i0++) {
          if (typeof data4[i0] !== 'string') {
            const err11 = {
              instancePath: instancePath + '/next/' + i0,
              schemaPath: '#/properties/next/items/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err11];
            } else {
              vErrors.push(err11);
            }
            errors++;
          }
        }
        let i1 = data4.length;
        let j0;
        if (i1 > 1) {
          const indices0 = {};
          for (; i1--;) {
            let item0 = data4[i1];
            if (typeof item0 !== 'string') {
              continue;
            }
            if (typeof indices0[item0] == 'number') {
              j0 = indices0[item0];
              const err12 = {
                instancePath: instancePath + '/next',
                schemaPath: '#/properties/next/uniqueItems',
                keyword: 'uniqueItems',
                params: { i: i1, j: j0 },
                message: 'must NOT have duplicate items (items ## ' + j0 + ' and ' + i1 + ' are identical)',
              };
              if (vErrors === null) {
                vErrors = [err12];
              } else {
                vErrors.push(err12);
              }
              errors++;
              break;
            }
            indices0[item0] = i1;
          }
        }
      }
    }
    if (data.content_type !== undefined) {
      let data6 = data.content_type;
      if (typeof data6 === 'string') {
        if (func3(data6) < 1) {
          const err13 = {
            instancePath: instancePath + '/content_type',
            schemaPath: '#/properties/content_type/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err13];
          } else {
            vErrors.push(err13);
          }
          errors++;
        }
      } else {
        const err14 = {
          instancePath: instancePath + '/content_type',
          schemaPath: '#/properties/content_type/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err14];
        } else {
          vErrors.push(err14);
        }
        errors++;
      }
    }
    if (data.output_schema !== undefined) {
      let data7 = data.output_schema;
      if (typeof data7 !== 'string' && !(data7 && typeof data7 == 'object' && !Array.isArray(data7))) {
        const err15 = {
          instancePath: instancePath + '/output_schema',
          schemaPath: '#/properties/output_schema/type',
          keyword: 'type',
          params: { type: schema12.properties.output_schema.type },
          message: 'must be string,object',
        };
        if (vErrors === null) {
          vErrors = [err15];
        } else {
          vErrors.push(err15);
        }
        errors++;
      }
    }
    if (data.plan !== undefined) {
      if (typeof data.plan !== 'boolean') {
        const err16 = {
          instancePath: instancePath + '/plan',
          schemaPath: '#/properties/plan/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err16];
        } else {
          vErrors.push(err16);
        }
        errors++;
      }
    }
    if (data.on_failure !== undefined) {
      if (typeof data.on_failure !== 'string') {
        const err17 = {
          instancePath: instancePath + '/on_failure',
          schemaPath: '#/properties/on_failure/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err17];
        } else {
          vErrors.push(err17);
        }
        errors++;
      }
    }
    if (data.model !== undefined) {
      let data10 = data.model;
      if (typeof data10 === 'string') {
        if (func3(data10) < 1) {
          const err18 = {
            instancePath: instancePath + '/model',
            schemaPath: '#/properties/model/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err18];
          } else {
            vErrors.push(err18);
          }
          errors++;
        }
      } else {
        const err19 = {
          instancePath: instancePath + '/model',
          schemaPath: '#/properties/model/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err19];
        } else {
          vErrors.push(err19);
        }
        errors++;
      }
    }
    if (data.temperature !== undefined) {
      let data11 = data.temperature;
      if (typeof data11 == 'number') {
        if (data11 > 2 || isNaN(data11)) {
          const err20 = {
            instancePath: instancePath + '/temperature',
            schemaPath: '#/properties/temperature/maximum',
            keyword: 'maximum',
            params: { comparison: '<=', limit: 2 },
            message: 'must be <= 2',
          };
          if (vErrors === null) {
            vErrors = [err20];
          } else {
            vErrors.push(err20);
          }
          errors++;
        }
        if (data11 < 0 || isNaN(data11)) {
          const err21 = {
            instancePath: instancePath + '/temperature',
            schemaPath: '#/properties/temperature/minimum',
            keyword: 'minimum',
            params: { comparison: '>=', limit: 0 },
            message: 'must be >= 0',
          };
          if (vErrors === null) {
            vErrors = [err21];
          } else {
            vErrors.push(err21);
          }
          errors++;
        }
      } else {
        const err22 = {
          instancePath: instancePath + '/temperature',
          schemaPath: '#/properties/temperature/type',
          keyword: 'type',
          params: { type: 'number' },
          message: 'must be number',
        };
        if (vErrors === null) {
          vErrors = [err22];
        } else {
          vErrors.push(err22);
        }
        errors++;
      }
    }
    if (data.max_tokens !== undefined) {
      let data12 = data.max_tokens;
      if (!(typeof data12 == 'number' && !(data12 % 1) && !isNaN(data12))) {
        const err23 = {
          instancePath: instancePath + '/max_tokens',
          schemaPath: '#/properties/max_tokens/type',
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be integer',
        };
        if (vErrors === null) {
          vErrors = [err23];
        } else {
          vErrors.push(err23);
        }
        errors++;
      }
      if (typeof data12 == 'number') {
        if (data12 < 1 || isNaN(data12)) {
          const err24 = {
            instancePath: instancePath + '/max_tokens',
            schemaPath: '#/properties/max_tokens/minimum',
            keyword: 'minimum',
            params: { comparison: '>=', limit: 1 },
            message: 'must be >= 1',
          };
          if (vErrors === null) {
            vErrors = [err24];
          } else {
            vErrors.push(err24);
          }
          errors++;
        }
      }
    }
    if (data.timeout_ms !== undefined) {
      let data13 = data.timeout_ms;
      if (!(typeof data13 == 'number' && !(data13 % 1) && !isNaN(data13))) {
        const err25 = {
          instancePath: instancePath + '/timeout_ms',
          schemaPath: '#/properties/timeout_ms/type',
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be integer',
        };
        if (vErrors === null) {
          vErrors = [err25];
        } else {
          vErrors.push(err25);
        }
        errors++;
      }
      if (typeof data13 == 'number') {
        if (data13 < 1 || isNaN(data13)) {
          const err26 = {
            instancePath: instancePath + '/timeout_ms',
            schemaPath: '#/properties/timeout_ms/minimum',
            keyword: 'minimum',
            params: { comparison: '>=', limit: 1 },
            message: 'must be >= 1',
          };
          if (vErrors === null) {
            vErrors = [err26];
          } else {
            vErrors.push(err26);
          }
          errors++;
        }
      }
    }
    if (data.max_retries !== undefined) {
      let data14 = data.max_retries;
      if (!(typeof data14 == 'number' && !(data14 % 1) && !isNaN(data14))) {
        const err27 = {
          instancePath: instancePath + '/max_retries',
          schemaPath: '#/properties/max_retries/type',
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be integer',
        };
        if (vErrors === null) {
          vErrors = [err27];
        } else {
          vErrors.push(err27);
        }
        errors++;
      }
      if (typeof data14 == 'number') {
        if (data14 < 0 || isNaN(data14)) {
          const err28 = {
            instancePath: instancePath + '/max_retries',
            schemaPath: '#/properties/max_retries/minimum',
            keyword: 'minimum',
            params: { comparison: '>=', limit: 0 },
            message: 'must be >= 0',
          };
          if (vErrors === null) {
            vErrors = [err28];
          } else {
            vErrors.push(err28);
          }
          errors++;
        }
      }
    }
    if (data.file !== undefined) {
      if (typeof data.file !== 'string') {
        const err29 = {
          instancePath: instancePath + '/file',
          schemaPath: '#/properties/file/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err29];
        } else {
          vErrors.push(err29);
        }
        errors++;
      }
    }
    if (data.tools !== undefined) {
      let data16 = data.tools;
      if (Array.isArray(data16)) {
        const len1 = data16.length;
        for (let i2 = 0; i2 < len1; i2++) {
          let data17 = data16[i2];
          if (typeof data17 === 'string') {
            if (func3(data17) < 1) {
              const err30 = {
                instancePath: instancePath + '/tools/' + i2,
                schemaPath: '#/properties/tools/items/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err30];
              } else {
                vErrors.push(err30);
              }
              errors++;
            }
          } else {
            const err31 = {
              instancePath: instancePath + '/tools/' + i2,
              schemaPath: '#/properties/tools/items/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err31];
            } else {
              vErrors.push(err31);
            }
            errors++;
          }
        }
        let i3 = data16.length;
        let j1;
        if (i3 > 1) {
          const indices1 = {};
          for (; i3--;) {
            let item1 = data16[i3];
            if (typeof item1 !== 'string') {
              continue;
            }
            if (typeof indices1[item1] == 'number') {
              j1 = indices1[item1];
              const err32 = {
                instancePath: instancePath + '/tools',
                schemaPath: '#/properties/tools/uniqueItems',
                keyword: 'uniqueItems',
                params: { i: i3, j: j1 },
                message: 'must NOT have duplicate items (items ## ' + j1 + ' and ' + i3 + ' are identical)',
              };
              if (vErrors === null) {
                vErrors = [err32];
              } else {
                vErrors.push(err32);
              }
              errors++;
              break;
            }
            indices1[item1] = i3;
          }
        }
      } else {
        const err33 = {
          instancePath: instancePath + '/tools',
          schemaPath: '#/properties/tools/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err33];
        } else {
          vErrors.push(err33);
        }
        errors++;
      }
    }
    if (data.max_turns !== undefined) {
      let data18 = data.max_turns;
      if (!(typeof data18 == 'number' && !(data18 % 1) && !isNaN(data18))) {
        const err34 = {
          instancePath: instancePath + '/max_turns',
          schemaPath: '#/properties/max_turns/type',
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be integer',
        };
        if (vErrors === null) {
          vErrors = [err34];
        } else {
          vErrors.push(err34);
        }
        errors++;
      }
      if (typeof data18 == 'number') {
        if (data18 < 1 || isNaN(data18)) {
          const err35 = {
            instancePath: instancePath + '/max_turns',
            schemaPath: '#/properties/max_turns/minimum',
            keyword: 'minimum',
            params: { comparison: '>=', limit: 1 },
            message: 'must be >= 1',
          };
          if (vErrors === null) {
            vErrors = [err35];
          } else {
            vErrors.push(err35);
          }
          errors++;
        }
      }
    }
    if (data.approval !== undefined) {
      let data19 = data.approval;
      if (Array.isArray(data19)) {
        const len2 = data19.length;
        for (let i4 = 0; i4 < len2; i4++) {
          let data20 = data19[i4];
          if (typeof data20 === 'string') {
            if (func3(data20) < 1) {
              const err36 = {
                instancePath: instancePath + '/approval/' + i4,
                schemaPath: '#/properties/approval/items/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err36];
              } else {
                vErrors.push(err36);
              }
              errors++;
            }
          } else {
            const err37 = {
              instancePath: instancePath + '/approval/' + i4,
              schemaPath: '#/properties/approval/items/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err37];
            } else {
              vErrors.push(err37);
            }
            errors++;
          }
        }
        let i5 = data19.length;
        let j2;
        if (i5 > 1) {
          const indices2 = {};
          for (; i5--;) {
            let item2 = data19[i5];
            if (typeof item2 !== 'string') {
              continue;
            }
            if (typeof indices2[item2] == 'number') {
              j2 = indices2[item2];
              const err38 = {
                instancePath: instancePath + '/approval',
                schemaPath: '#/properties/approval/uniqueItems',
                keyword: 'uniqueItems',
                params: { i: i5, j: j2 },
                message: 'must NOT have duplicate items (items ## ' + j2 + ' and ' + i5 + ' are identical)',
              };
              if (vErrors === null) {
                vErrors = [err38];
              } else {
                vErrors.push(err38);
              }
              errors++;
              break;
            }
            indices2[item2] = i5;
          }
        }
      } else {
        const err39 = {
          instancePath: instancePath + '/approval',
          schemaPath: '#/properties/approval/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err39];
        } else {
          vErrors.push(err39);
        }
        errors++;
      }
    }
    if (data.delegates !== undefined) {
      let data21 = data.delegates;
      if (Array.isArray(data21)) {
        const len3 = data21.length;
        for (let i6 = 0; i6 < len3; i6++) {
          let data22 = data21[i6];
          if (typeof data22 === 'string') {
            if (func3(data22) < 1) {
              const err40 = {
                instancePath: instancePath + '/delegates/' + i6,
                schemaPath: '#/properties/delegates/items/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err40];
              } else {
                vErrors.push(err40);
              }
              errors++;
            }
          } else {
            const err41 = {
              instancePath: instancePath + '/delegates/' + i6,
              schemaPath: '#/properties/delegates/items/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err41];
            } else {
              vErrors.push(err41);
            }
            errors++;
          }
        }
        let i7 = data21.length;
        let j3;
        if (i7 > 1) {
          const indices3 = {};
          for (; i7--;) {
            let item3 = data21[i7];
            if (typeof item3 !== 'string') {
              continue;
            }
            if (typeof indices3[item3] == 'number') {
              j3 = indices3[item3];
              const err42 = {
                instancePath: instancePath + '/delegates',
                schemaPath: '#/properties/delegates/uniqueItems',
                keyword: 'uniqueItems',
                params: { i: i7, j: j3 },
                message: 'must NOT have duplicate items (items ## ' + j3 + ' and ' + i7 + ' are identical)',
              };
              if (vErrors === null) {
                vErrors = [err42];
              } else {
                vErrors.push(err42);
              }
              errors++;
              break;
            }
            indices3[item3] = i7;
          }
        }
      } else {
        const err43 = {
          instancePath: instancePath + '/delegates',
          schemaPath: '#/properties/delegates/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err43];
        } else {
          vErrors.push(err43);
        }
        errors++;
      }
    }
    if (data.attachments !== undefined) {
      let data23 = data.attachments;
      if (!(data23 === 'inline' || data23 === 'list' || data23 === 'native')) {
        const err44 = {
          instancePath: instancePath + '/attachments',
          schemaPath: '#/properties/attachments/enum',
          keyword: 'enum',
          params: { allowedValues: schema12.properties.attachments.enum },
          message: 'must be equal to one of the allowed values',
        };
        if (vErrors === null) {
          vErrors = [err44];
        } else {
          vErrors.push(err44);
        }
        errors++;
      }
    }
    if (data.routes !== undefined) {
      let data24 = data.routes;
      if (Array.isArray(data24)) {
        const len4 = data24.length;
        for (let i8 = 0; i8 < len4; i8++) {
          let data25 = data24[i8];
          if (data25 && typeof data25 == 'object' && !Array.isArray(data25)) {
            if (data25.to === undefined) {
              const err45 = {
                instancePath: instancePath + '/routes/' + i8,
                schemaPath: '#/properties/routes/items/required',
                keyword: 'required',
                params: { missingProperty: 'to' },
                message: "must have required property '" + 'to' + "'",
              };
              if (vErrors === null) {
                vErrors = [err45];
              } else {
                vErrors.push(err45);
              }
              errors++;
            }
            for (const key1 in data25) {
              if (!(key1 === 'when' || key1 === 'to')) {
                const err46 = {
                  instancePath: instancePath + '/routes/' + i8,
                  schemaPath: '#/properties/routes/items/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key1 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err46];
                } else {
                  vErrors.push(err46);
                }
                errors++;
              }
            }
            if (data25.when !== undefined) {
              let data26 = data25.when;
              if (typeof data26 === 'string') {
                if (func3(data26) < 1) {
                  const err47 = {
                    instancePath: instancePath + '/routes/' + i8 + '/when',
                    schemaPath: '#/properties/routes/items/properties/when/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err47];
                  } else {
                    vErrors.push(err47);
                  }
                  errors++;
                }
              } else {
                const err48 = {
                  instancePath: instancePath + '/routes/' + i8 + '/when',
                  schemaPath: '#/properties/routes/items/properties/when/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err48];
                } else {
                  vErrors.push(err48);
                }
                errors++;
              }
            }
            if (data25.to !== undefined) {
              let data27 = data25.to;
              if (typeof data27 !== 'string' && data27 !== null) {
                const err49 = {
                  instancePath: instancePath + '/routes/' + i8 + '/to',
                  schemaPath: '#/properties/routes/items/properties/to/type',
                  keyword: 'type',
                  params: { type: schema12.properties.routes.items.properties.to.type },
                  message: 'must be string,null',
                };
                if (vErrors === null) {
                  vErrors = [err49];
                } else {
                  vErrors.push(err49);
                }
                errors++;
              }
              if (typeof data27 === 'string') {
                if (func3(data27) < 1) {
                  const err50 = {
                    instancePath: instancePath + '/routes/' + i8 + '/to',
                    schemaPath: '#/properties/routes/items/properties/to/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err50];
                  } else {
                    vErrors.push(err50);
                  }
                  errors++;
                }
              }
            }
          } else {
            const err51 = {
              instancePath: instancePath + '/routes/' + i8,
              schemaPath: '#/properties/routes/items/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err51];
            } else {
              vErrors.push(err51);
            }
            errors++;
          }
        }
      } else {
        const err52 = {
          instancePath: instancePath + '/routes',
          schemaPath: '#/properties/routes/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err52];
        } else {
          vErrors.push(err52);
        }
        errors++;
      }
    }
    if (data.input !== undefined) {
      let data28 = data.input;
      if (typeof data28 === 'string') {
        if (func3(data28) < 1) {
          const err53 = {
            instancePath: instancePath + '/input',
            schemaPath: '#/properties/input/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err53];
          } else {
            vErrors.push(err53);
          }
          errors++;
        }
      } else {
        const err54 = {
          instancePath: instancePath + '/input',
          schemaPath: '#/properties/input/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err54];
        } else {
          vErrors.push(err54);
        }
        errors++;
      }
    }
    if (data.answer !== undefined) {
      let data29 = data.answer;
      if (typeof data29 === 'string') {
        if (func3(data29) < 1) {
          const err55 = {
            instancePath: instancePath + '/answer',
            schemaPath: '#/properties/answer/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err55];
          } else {
            vErrors.push(err55);
          }
          errors++;
        }
      } else {
        const err56 = {
          instancePath: instancePath + '/answer',
          schemaPath: '#/properties/answer/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err56];
        } else {
          vErrors.push(err56);
        }
        errors++;
      }
    }
    if (data.protocol !== undefined) {
      let data30 = data.protocol;
      if (!(data30 === 'sentient' || data30 === 'none')) {
        const err57 = {
          instancePath: instancePath + '/protocol',
          schemaPath: '#/properties/protocol/enum',
          keyword: 'enum',
          params: { allowedValues: schema12.properties.protocol.enum },
          message: 'must be equal to one of the allowed values',
        };
        if (vErrors === null) {
          vErrors = [err57];
        } else {
          vErrors.push(err57);
        }
        errors++;
      }
    }
    if (data.message_format !== undefined) {
      let data31 = data.message_format;
      if (!(data31 === 'sentient' || data31 === 'sacp')) {
        const err58 = {
          instancePath: instancePath + '/message_format',
          schemaPath: '#/properties/message_format/enum',
          keyword: 'enum',
          params: { allowedValues: schema12.properties.message_format.enum },
          message: 'must be equal to one of the allowed values',
        };
        if (vErrors === null) {
          vErrors = [err58];
        } else {
          vErrors.push(err58);
        }
        errors++;
      }
    }
  } else {
    const err59 = {
      instancePath,
      schemaPath: '#/type',
      keyword: 'type',
      params: { type: 'object' },
      message: 'must be object',
    };
    if (vErrors === null) {
      vErrors = [err59];
    } else {
      vErrors.push(err59);
    }
    errors++;
  }
  validate11.errors = vErrors;
  return errors === 0;
}
export const testCase = validate12;
const schema13 = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'request', 'expect'],
  properties: {
    name: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
    request: {
      anyOf: [
        { type: 'string', minLength: 1 },
        {
          type: 'object',
          additionalProperties: false,
          required: ['request'],
          properties: {
            request: { type: 'string', minLength: 1 },
            request_id: { type: 'string', pattern: '^[A-Za-z0-9._-]{1,128}$' },
            user: { type: 'string' },
            metadata: { type: 'object' },
          },
        },
      ],
    },
    cassette: { type: 'string', minLength: 1 },
    expect: {
      type: 'object',
      additionalProperties: false,
      properties: {
        status: { enum: ['success', 'partial', 'failed', 'pending'] },
        agents: { type: 'array', items: { type: 'string' } },
        output: { type: 'object', propertyNames: { pattern: '^(/.*)?$' } },
        audit: {
          type: 'object',
          additionalProperties: false,
          properties: {
            entries: {
              anyOf: [
                { type: 'integer', minimum: 0 },
                {
                  type: 'array',
                  items: {
                    type: 'object',
                    additionalProperties: false,
                    properties: {
                      agent: { type: 'string' },
                      status: { type: 'string' },
                      output_type: { type: 'string' },
                      contains: { type: 'array', items: { type: 'string' } },
                    },
                  },
                },
              ],
            },
            violations: { type: 'integer', minimum: 0 },
            verify: { type: 'boolean' },
            contains: { type: 'array', items: { type: 'string' } },
            not_contains: { type: 'array', items: { type: 'string' } },
          },
        },
      },
    },
  },
};
const pattern17 = new RegExp('^[A-Za-z0-9._-]{1,128}$', 'u');
const pattern19 = new RegExp('^(/.*)?$', 'u');
function validate12(data, { instancePath = '', parentData, parentDataProperty, rootData = data } = {}) {
  let vErrors = null;
  let errors = 0;
  if (data && typeof data == 'object' && !Array.isArray(data)) {
    if (data.name === undefined) {
      const err0 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'name' },
        message: "must have required property '" + 'name' + "'",
      };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.request === undefined) {
      const err1 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'request' },
        message: "must have required property '" + 'request' + "'",
      };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.expect === undefined) {
      const err2 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'expect' },
        message: "must have required property '" + 'expect' + "'",
      };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    for (const key0 in data) {
      if (!(key0 === 'name' || key0 === 'request' || key0 === 'cassette' || key0 === 'expect')) {
        const err3 = {
          instancePath,
          schemaPath: '#/additionalProperties',
          keyword: 'additionalProperties',
          params: { additionalProperty: key0 },
          message: 'must NOT have additional properties',
        };
        if (vErrors === null) {
          vErrors = [err3];
        } else {
          vErrors.push(err3);
        }
        errors++;
      }
    }
    if (data.name !== undefined) {
      let data0 = data.name;
      if (typeof data0 === 'string') {
        if (!pattern17.test(data0)) {
          const err4 = {
            instancePath: instancePath + '/name',
            schemaPath: '#/properties/name/pattern',
            keyword: 'pattern',
            params: { pattern: '^[A-Za-z0-9._-]{1,128}$' },
            message: 'must match pattern "' + '^[A-Za-z0-9._-]{1,128}$' + '"',
          };
          if (vErrors === null) {
            vErrors = [err4];
          } else {
            vErrors.push(err4);
          }
          errors++;
        }
      } else {
        const err5 = {
          instancePath: instancePath + '/name',
          schemaPath: '#/properties/name/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err5];
        } else {
          vErrors.push(err5);
        }
        errors++;
      }
    }
    if (data.request !== undefined) {
      let data1 = data.request;
      const _errs5 = errors;
      let valid1 = false;
      const _errs6 = errors;
      if (typeof data1 === 'string') {
        if (func3(data1) < 1) {
          const err6 = {
            instancePath: instancePath + '/request',
            schemaPath: '#/properties/request/anyOf/0/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err6];
          } else {
            vErrors.push(err6);
          }
          errors++;
        }
      } else {
        const err7 = {
          instancePath: instancePath + '/request',
          schemaPath: '#/properties/request/anyOf/0/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err7];
        } else {
          vErrors.push(err7);
        }
        errors++;
      }
      var _valid0 = _errs6 === errors;
      valid1 = valid1 || _valid0;
      if (!valid1) {
        const _errs8 = errors;
        if (data1 && typeof data1 == 'object' && !Array.isArray(data1)) {
          if (data1.request === undefined) {
            const err8 = {
              instancePath: instancePath + '/request',
              schemaPath: '#/properties/request/anyOf/1/required',
              keyword: 'required',
              params: { missingProperty: 'request' },
              message: "must have required property '" + 'request' + "'",
            };
            if (vErrors === null) {
              vErrors = [err8];
            } else {
              vErrors.push(err8);
            }
            errors++;
          }
          for (const key1 in data1) {
            if (!(key1 === 'request' || key1 === 'request_id' || key1 === 'user' || key1 === 'metadata')) {
              const err9 = {
                instancePath: instancePath + '/request',
                schemaPath: '#/properties/request/anyOf/1/additionalProperties',
                keyword: 'additionalProperties',
                params: { additionalProperty: key1 },
                message: 'must NOT have additional properties',
              };
              if (vErrors === null) {
                vErrors = [err9];
              } else {
                vErrors.push(err9);
              }
              errors++;
            }
          }
          if (data1.request !== undefined) {
            let data2 = data1.request;
            if (typeof data2 === 'string') {
              if (func3(data2) < 1) {
                const err10 = {
                  instancePath: instancePath + '/request/request',
                  schemaPath: '#/properties/request/anyOf/1/properties/request/minLength',
                  keyword: 'minLength',
                  params: { limit: 1 },
                  message: 'must NOT have fewer than 1 characters',
                };
                if (vErrors === null) {
                  vErrors = [err10];
                } else {
                  vErrors.push(err10);
                }
                errors++;
              }
            } else {
              const err11 = {
                instancePath: instancePath + '/request/request',
                schemaPath: '#/properties/request/anyOf/1/properties/request/type',
                keyword: 'type',
                params: { type: 'string' },
                message: 'must be string',
              };
              if (vErrors === null) {
                vErrors = [err11];
              } else {
                vErrors.push(err11);
              }
              errors++;
            }
          }
          if (data1.request_id !== undefined) {
            let data3 = data1.request_id;
            if (typeof data3 === 'string') {
              if (!pattern17.test(data3)) {
                const err12 = {
                  instancePath: instancePath + '/request/request_id',
                  schemaPath: '#/properties/request/anyOf/1/properties/request_id/pattern',
                  keyword: 'pattern',
                  params: { pattern: '^[A-Za-z0-9._-]{1,128}$' },
                  message: 'must match pattern "' + '^[A-Za-z0-9._-]{1,128}$' + '"',
                };
                if (vErrors === null) {
                  vErrors = [err12];
                } else {
                  vErrors.push(err12);
                }
                errors++;
              }
            } else {
              const err13 = {
                instancePath: instancePath + '/request/request_id',
                schemaPath: '#/properties/request/anyOf/1/properties/request_id/type',
                keyword: 'type',
                params: { type: 'string' },
                message: 'must be string',
              };
              if (vErrors === null) {
                vErrors = [err13];
              } else {
                vErrors.push(err13);
              }
              errors++;
            }
          }
          if (data1.user !== undefined) {
            if (typeof data1.user !== 'string') {
              const err14 = {
                instancePath: instancePath + '/request/user',
                schemaPath: '#/properties/request/anyOf/1/properties/user/type',
                keyword: 'type',
                params: { type: 'string' },
                message: 'must be string',
              };
              if (vErrors === null) {
                vErrors = [err14];
              } else {
                vErrors.push(err14);
              }
              errors++;
            }
          }
          if (data1.metadata !== undefined) {
            let data5 = data1.metadata;
            if (!(data5 && typeof data5 == 'object' && !Array.isArray(data5))) {
              const err15 = {
                instancePath: instancePath + '/request/metadata',
                schemaPath: '#/properties/request/anyOf/1/properties/metadata/type',
                keyword: 'type',
                params: { type: 'object' },
                message: 'must be object',
              };
              if (vErrors === null) {
                vErrors = [err15];
              } else {
                vErrors.push(err15);
              }
              errors++;
            }
          }
        } else {
          const err16 = {
            instancePath: instancePath + '/request',
            schemaPath: '#/properties/request/anyOf/1/type',
            keyword: 'type',
            params: { type: 'object' },
            message: 'must be object',
          };
          if (vErrors === null) {
            vErrors = [err16];
          } else {
            vErrors.push(err16);
          }
          errors++;
        }
        var _valid0 = _errs8 === errors;
        valid1 = valid1 || _valid0;
      }
      if (!valid1) {
        const err17 = {
          instancePath: instancePath + '/request',
          schemaPath: '#/properties/request/anyOf',
          keyword: 'anyOf',
          params: {},
          message: 'must match a schema in anyOf',
        };
        if (vErrors === null) {
          vErrors = [err17];
        } else {
          vErrors.push(err17);
        }
        errors++;
      } else {
        errors = _errs5;
        if (vErrors !== null) {
          if (_errs5) {
            vErrors.length = _errs5;
          } else {
            vErrors = null;
          }
        }
      }
    }
    if (data.cassette !== undefined) {
      let data6 = data.cassette;
      if (typeof data6 === 'string') {
        if (func3(data6) < 1) {
          const err18 = {
            instancePath: instancePath + '/cassette',
            schemaPath: '#/properties/cassette/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err18];
          } else {
            vErrors.push(err18);
          }
          errors++;
        }
      } else {
        const err19 = {
          instancePath: instancePath + '/cassette',
          schemaPath: '#/properties/cassette/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err19];
        } else {
          vErrors.push(err19);
        }
        errors++;
      }
    }
    if (data.expect !== undefined) {
      let data7 = data.expect;
      if (data7 && typeof data7 == 'object' && !Array.isArray(data7)) {
        for (const key2 in data7) {
          if (!(key2 === 'status' || key2 === 'agents' || key2 === 'output' || key2 === 'audit')) {
            const err20 = {
              instancePath: instancePath + '/expect',
              schemaPath: '#/properties/expect/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key2 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err20];
            } else {
              vErrors.push(err20);
            }
            errors++;
          }
        }
        if (data7.status !== undefined) {
          let data8 = data7.status;
          if (!(data8 === 'success' || data8 === 'partial' || data8 === 'failed' || data8 === 'pending')) {
            const err21 = {
              instancePath: instancePath + '/expect/status',
              schemaPath: '#/properties/expect/properties/status/enum',
              keyword: 'enum',
              params: { allowedValues: schema13.properties.expect.properties.status.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err21];
            } else {
              vErrors.push(err21);
            }
            errors++;
          }
        }
        if (data7.agents !== undefined) {
          let data9 = data7.agents;
          if (Array.isArray(data9)) {
            const len0 = data9.length;
            for (let i0 = 0; i0 < len0; i0++) {
              if (typeof data9[i0] !== 'string') {
                const err22 = {
                  instancePath: instancePath + '/expect/agents/' + i0,
                  schemaPath: '#/properties/expect/properties/agents/items/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err22];
                } else {
                  vErrors.push(err22);
                }
                errors++;
              }
            }
          } else {
            const err23 = {
              instancePath: instancePath + '/expect/agents',
              schemaPath: '#/properties/expect/properties/agents/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err23];
            } else {
              vErrors.push(err23);
            }
            errors++;
          }
        }
        if (data7.output !== undefined) {
          let data11 = data7.output;
          if (data11 && typeof data11 == 'object' && !Array.isArray(data11)) {
            for (const key3 in data11) {
              const _errs31 = errors;
              if (typeof key3 === 'string') {
                if (!pattern19.test(key3)) {
                  const err24 = {
                    instancePath: instancePath + '/expect/output',
                    schemaPath: '#/properties/expect/properties/output/propertyNames/pattern',
                    keyword: 'pattern',
                    params: { pattern: '^(/.*)?$' },
                    message: 'must match pattern "' + '^(/.*)?$' + '"',
                    propertyName: key3,
                  };
                  if (vErrors === null) {
                    vErrors = [err24];
                  } else {
                    vErrors.push(err24);
                  }
                  errors++;
                }
              }
              var valid6 = _errs31 === errors;
              if (!valid6) {
                const err25 = {
                  instancePath: instancePath + '/expect/output',
                  schemaPath: '#/properties/expect/properties/output/propertyNames',
                  keyword: 'propertyNames',
                  params: { propertyName: key3 },
                  message: 'property name must be valid',
                };
                if (vErrors === null) {
                  vErrors = [err25];
                } else {
                  vErrors.push(err25);
                }
                errors++;
              }
            }
          } else {
            const err26 = {
              instancePath: instancePath + '/expect/output',
              schemaPath: '#/properties/expect/properties/output/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err26];
            } else {
              vErrors.push(err26);
            }
            errors++;
          }
        }
        if (data7.audit !== undefined) {
          let data12 = data7.audit;
          if (data12 && typeof data12 == 'object' && !Array.isArray(data12)) {
            for (const key4 in data12) {
              if (!(
                key4 === 'entries' ||
                key4 === 'violations' ||
                key4 === 'verify' ||
                key4 === 'contains' ||
                key4 === 'not_contains'
              )) {
                const err27 = {
                  instancePath: instancePath + '/expect/audit',
                  schemaPath: '#/properties/expect/properties/audit/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key4 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err27];
                } else {
                  vErrors.push(err27);
                }
                errors++;
              }
            }
            if (data12.entries !== undefined) {
              let data13 = data12.entries;
              const _errs36 = errors;
              let valid8 = false;
              const _errs37 = errors;
              if (!(typeof data13 == 'number' && !(data13 % 1) && !isNaN(data13))) {
                const err28 = {
                  instancePath: instancePath + '/expect/audit/entries',
                  schemaPath: '#/properties/expect/properties/audit/properties/entries/anyOf/0/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err28];
                } else {
                  vErrors.push(err28);
                }
                errors++;
              }
              if (typeof data13 == 'number') {
                if (data13 < 0 || isNaN(data13)) {
                  const err29 = {
                    instancePath: instancePath + '/expect/audit/entries',
                    schemaPath: '#/properties/expect/properties/audit/properties/entries/anyOf/0/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err29];
                  } else {
                    vErrors.push(err29);
                  }
                  errors++;
                }
              }
              var _valid1 = _errs37 === errors;
              valid8 = valid8 || _valid1;
              if (!valid8) {
                const _errs39 = errors;
                if (Array.isArray(data13)) {
                  const len1 = data13.length;
                  for (let i1 = 0; i1 < len1; i1++) {
                    let data14 = data13[i1];
                    if (data14 && typeof data14 == 'object' && !Array.isArray(data14)) {
                      for (const key5 in data14) {
                        if (!(key5 === 'agent' || key5 === 'status' || key5 === 'output_type' || key5 === 'contains')) {
                          const err30 = {
                            instancePath: instancePath + '/expect/audit/entries/' + i1,
                            schemaPath:
                              '#/properties/expect/properties/audit/properties/entries/anyOf/1/items/additionalProperties',
                            keyword: 'additionalProperties',
                            params: { additionalProperty: key5 },
                            message: 'must NOT have additional properties',
                          };
                          if (vErrors === null) {
                            vErrors = [err30];
                          } else {
                            vErrors.push(err30);
                          }
                          errors++;
                        }
                      }
                      if (data14.agent !== undefined) {
                        if (typeof data14.agent !== 'string') {
                          const err31 = {
                            instancePath: instancePath + '/expect/audit/entries/' + i1 + '/agent',
                            schemaPath:
                              '#/properties/expect/properties/audit/properties/entries/anyOf/1/items/properties/agent/type',
                            keyword: 'type',
                            params: { type: 'string' },
                            message: 'must be string',
                          };
                          if (vErrors === null) {
                            vErrors = [err31];
                          } else {
                            vErrors.push(err31);
                          }
                          errors++;
                        }
                      }
                      if (data14.status !== undefined) {
                        if (typeof data14.status !== 'string') {
                          const err32 = {
                            instancePath: instancePath + '/expect/audit/entries/' + i1 + '/status',
                            schemaPath:
                              '#/properties/expect/properties/audit/properties/entries/anyOf/1/items/properties/status/type',
                            keyword: 'type',
                            params: { type: 'string' },
                            message: 'must be string',
                          };
                          if (vErrors === null) {
                            vErrors = [err32];
                          } else {
                            vErrors.push(err32);
                          }
                          errors++;
                        }
                      }
                      if (data14.output_type !== undefined) {
                        if (typeof data14.output_type !== 'string') {
                          const err33 = {
                            instancePath: instancePath + '/expect/audit/entries/' + i1 + '/output_type',
                            schemaPath:
                              '#/properties/expect/properties/audit/properties/entries/anyOf/1/items/properties/output_type/type',
                            keyword: 'type',
                            params: { type: 'string' },
                            message: 'must be string',
                          };
                          if (vErrors === null) {
                            vErrors = [err33];
                          } else {
                            vErrors.push(err33);
                          }
                          errors++;
                        }
                      }
                      if (data14.contains !== undefined) {
                        let data18 = data14.contains;
                        if (Array.isArray(data18)) {
                          const len2 = data18.length;
                          for (let i2 = 0; i2 < len2; i2++) {
                            if (typeof data18[i2] !== 'string') {
                              const err34 = {
                                instancePath: instancePath + '/expect/audit/entries/' + i1 + '/contains/' + i2,
                                schemaPath:
                                  '#/properties/expect/properties/audit/properties/entries/anyOf/1/items/properties/contains/items/type',
                                keyword: 'type',
                                params: { type: 'string' },
                                message: 'must be string',
                              };
                              if (vErrors === null) {
                                vErrors = [err34];
                              } else {
                                vErrors.push(err34);
                              }
                              errors++;
                            }
                          }
                        } else {
                          const err35 = {
                            instancePath: instancePath + '/expect/audit/entries/' + i1 + '/contains',
                            schemaPath:
                              '#/properties/expect/properties/audit/properties/entries/anyOf/1/items/properties/contains/type',
                            keyword: 'type',
                            params: { type: 'array' },
                            message: 'must be array',
                          };
                          if (vErrors === null) {
                            vErrors = [err35];
                          } else {
                            vErrors.push(err35);
                          }
                          errors++;
                        }
                      }
                    } else {
                      const err36 = {
                        instancePath: instancePath + '/expect/audit/entries/' + i1,
                        schemaPath: '#/properties/expect/properties/audit/properties/entries/anyOf/1/items/type',
                        keyword: 'type',
                        params: { type: 'object' },
                        message: 'must be object',
                      };
                      if (vErrors === null) {
                        vErrors = [err36];
                      } else {
                        vErrors.push(err36);
                      }
                      errors++;
                    }
                  }
                } else {
                  const err37 = {
                    instancePath: instancePath + '/expect/audit/entries',
                    schemaPath: '#/properties/expect/properties/audit/properties/entries/anyOf/1/type',
                    keyword: 'type',
                    params: { type: 'array' },
                    message: 'must be array',
                  };
                  if (vErrors === null) {
                    vErrors = [err37];
                  } else {
                    vErrors.push(err37);
                  }
                  errors++;
                }
                var _valid1 = _errs39 === errors;
                valid8 = valid8 || _valid1;
              }
              if (!valid8) {
                const err38 = {
                  instancePath: instancePath + '/expect/audit/entries',
                  schemaPath: '#/properties/expect/properties/audit/properties/entries/anyOf',
                  keyword: 'anyOf',
                  params: {},
                  message: 'must match a schema in anyOf',
                };
                if (vErrors === null) {
                  vErrors = [err38];
                } else {
                  vErrors.push(err38);
                }
                errors++;
              } else {
                errors = _errs36;
                if (vErrors !== null) {
                  if (_errs36) {
                    vErrors.length = _errs36;
                  } else {
                    vErrors = null;
                  }
                }
              }
            }
            if (data12.violations !== undefined) {
              let data20 = data12.violations;
              if (!(typeof data20 == 'number' && !(data20 % 1) && !isNaN(data20))) {
                const err39 = {
                  instancePath: instancePath + '/expect/audit/violations',
                  schemaPath: '#/properties/expect/properties/audit/properties/violations/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err39];
                } else {
                  vErrors.push(err39);
                }
                errors++;
              }
              if (typeof data20 == 'number') {
                if (data20 < 0 || isNaN(data20)) {
                  const err40 = {
                    instancePath: instancePath + '/expect/audit/violations',
                    schemaPath: '#/properties/expect/properties/audit/properties/violations/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err40];
                  } else {
                    vErrors.push(err40);
                  }
                  errors++;
                }
              }
            }
            if (data12.verify !== undefined) {
              if (typeof data12.verify !== 'boolean') {
                const err41 = {
                  instancePath: instancePath + '/expect/audit/verify',
                  schemaPath: '#/properties/expect/properties/audit/properties/verify/type',
                  keyword: 'type',
                  params: { type: 'boolean' },
                  message: 'must be boolean',
                };
                if (vErrors === null) {
                  vErrors = [err41];
                } else {
                  vErrors.push(err41);
                }
                errors++;
              }
            }
            if (data12.contains !== undefined) {
              let data22 = data12.contains;
              if (Array.isArray(data22)) {
                const len3 = data22.length;
                for (let i3 = 0; i3 < len3; i3++) {
                  if (typeof data22[i3] !== 'string') {
                    const err42 = {
                      instancePath: instancePath + '/expect/audit/contains/' + i3,
                      schemaPath: '#/properties/expect/properties/audit/properties/contains/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err42];
                    } else {
                      vErrors.push(err42);
                    }
                    errors++;
                  }
                }
              } else {
                const err43 = {
                  instancePath: instancePath + '/expect/audit/contains',
                  schemaPath: '#/properties/expect/properties/audit/properties/contains/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err43];
                } else {
                  vErrors.push(err43);
                }
                errors++;
              }
            }
            if (data12.not_contains !== undefined) {
              let data24 = data12.not_contains;
              if (Array.isArray(data24)) {
                const len4 = data24.length;
                for (let i4 = 0; i4 < len4; i4++) {
                  if (typeof data24[i4] !== 'string') {
                    const err44 = {
                      instancePath: instancePath + '/expect/audit/not_contains/' + i4,
                      schemaPath: '#/properties/expect/properties/audit/properties/not_contains/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err44];
                    } else {
                      vErrors.push(err44);
                    }
                    errors++;
                  }
                }
              } else {
                const err45 = {
                  instancePath: instancePath + '/expect/audit/not_contains',
                  schemaPath: '#/properties/expect/properties/audit/properties/not_contains/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err45];
                } else {
                  vErrors.push(err45);
                }
                errors++;
              }
            }
          } else {
            const err46 = {
              instancePath: instancePath + '/expect/audit',
              schemaPath: '#/properties/expect/properties/audit/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err46];
            } else {
              vErrors.push(err46);
            }
            errors++;
          }
        }
      } else {
        const err47 = {
          instancePath: instancePath + '/expect',
          schemaPath: '#/properties/expect/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err47];
        } else {
          vErrors.push(err47);
        }
        errors++;
      }
    }
  } else {
    const err48 = {
      instancePath,
      schemaPath: '#/type',
      keyword: 'type',
      params: { type: 'object' },
      message: 'must be object',
    };
    if (vErrors === null) {
      vErrors = [err48];
    } else {
      vErrors.push(err48);
    }
    errors++;
  }
  validate12.errors = vErrors;
  return errors === 0;
}
export const sentientMessage = validate13;
const schema14 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://govflow.dev/schemas/sentient-message.json',
  title: 'Sentient agent message',
  type: 'object',
  required: [
    'message_id',
    'timestamp',
    'agent',
    'input',
    'output',
    'next_agent',
    'status',
    'error',
    'metadata',
    'audit',
  ],
  properties: {
    message_id: { type: 'string', minLength: 1 },
    timestamp: {
      type: 'object',
      required: ['executed_at', 'timezone'],
      properties: { executed_at: { type: 'string', format: 'date-time' }, timezone: { type: 'string', minLength: 1 } },
    },
    agent: {
      type: 'object',
      required: ['name', 'type'],
      properties: { name: { type: 'string' }, type: { type: 'string' } },
    },
    input: { type: 'object', required: ['source', 'content'], properties: { source: { type: 'string' }, content: {} } },
    output: {
      type: 'object',
      required: ['content', 'content_type'],
      additionalProperties: false,
      properties: { content: {}, content_type: { type: 'string', minLength: 1 } },
    },
    next_agent: {
      type: 'object',
      required: ['name', 'reason'],
      additionalProperties: false,
      properties: { name: { type: ['string', 'null'] }, reason: { type: ['string', 'null'] } },
    },
    status: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: { code: { enum: ['success', 'partial', 'failed', 'pending'] }, message: { type: 'string' } },
    },
    error: {
      type: 'object',
      required: ['has_error', 'error_code', 'error_message', 'retry_count', 'recoverable'],
      additionalProperties: false,
      properties: {
        has_error: { type: 'boolean' },
        error_code: {
          anyOf: [
            {
              enum: [
                'OUT_OF_SCOPE',
                'INVALID_INPUT',
                'PROCESSING_ERROR',
                'TIMEOUT',
                'DEPENDENCY_ERROR',
                'VALIDATION_ERROR',
                'BUDGET_EXCEEDED',
                'LOOP_DETECTED',
              ],
            },
            { type: 'null' },
          ],
        },
        error_message: { type: ['string', 'null'] },
        retry_count: { type: 'integer', minimum: 0 },
        recoverable: { type: 'boolean' },
      },
      if: { properties: { has_error: { const: true } } },
      then: {
        properties: {
          error_code: {
            enum: [
              'OUT_OF_SCOPE',
              'INVALID_INPUT',
              'PROCESSING_ERROR',
              'TIMEOUT',
              'DEPENDENCY_ERROR',
              'VALIDATION_ERROR',
              'BUDGET_EXCEEDED',
              'LOOP_DETECTED',
            ],
          },
        },
      },
    },
    metadata: {
      type: 'object',
      required: ['session_id', 'request_id', 'sequence_number', 'parent_message_id'],
      properties: {
        session_id: { type: 'string' },
        request_id: { type: 'string' },
        sequence_number: { type: 'integer', minimum: 1 },
        parent_message_id: { type: ['string', 'null'] },
      },
    },
    audit: {
      type: 'object',
      required: ['compliance_notes', 'governance_files_consulted'],
      properties: {
        compliance_notes: { type: ['string', 'null'] },
        governance_files_consulted: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
      },
    },
  },
};
const formats0 = require('ajv-formats/dist/formats').fullFormats['date-time'];
function validate13(data, { instancePath = '', parentData, parentDataProperty, rootData = data } = {}) {
  /*# sourceURL="https://govflow.dev/schemas/sentient-message.json" */ let vErrors = null;
  let errors = 0;
  if (data && typeof data == 'object' && !Array.isArray(data)) {
    if (data.message_id === undefined) {
      const err0 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'message_id' },
        message: "must have required property '" + 'message_id' + "'",
      };
      if (vErrors === null) {
        vErrors = [err0];
      } else {
        vErrors.push(err0);
      }
      errors++;
    }
    if (data.timestamp === undefined) {
      const err1 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'timestamp' },
        message: "must have required property '" + 'timestamp' + "'",
      };
      if (vErrors === null) {
        vErrors = [err1];
      } else {
        vErrors.push(err1);
      }
      errors++;
    }
    if (data.agent === undefined) {
      const err2 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'agent' },
        message: "must have required property '" + 'agent' + "'",
      };
      if (vErrors === null) {
        vErrors = [err2];
      } else {
        vErrors.push(err2);
      }
      errors++;
    }
    if (data.input === undefined) {
      const err3 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'input' },
        message: "must have required property '" + 'input' + "'",
      };
      if (vErrors === null) {
        vErrors = [err3];
      } else {
        vErrors.push(err3);
      }
      errors++;
    }
    if (data.output === undefined) {
      const err4 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'output' },
        message: "must have required property '" + 'output' + "'",
      };
      if (vErrors === null) {
        vErrors = [err4];
      } else {
        vErrors.push(err4);
      }
      errors++;
    }
    if (data.next_agent === undefined) {
      const err5 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'next_agent' },
        message: "must have required property '" + 'next_agent' + "'",
      };
      if (vErrors === null) {
        vErrors = [err5];
      } else {
        vErrors.push(err5);
      }
      errors++;
    }
    if (data.status === undefined) {
      const err6 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'status' },
        message: "must have required property '" + 'status' + "'",
      };
      if (vErrors === null) {
        vErrors = [err6];
      } else {
        vErrors.push(err6);
      }
      errors++;
    }
    if (data.error === undefined) {
      const err7 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'error' },
        message: "must have required property '" + 'error' + "'",
      };
      if (vErrors === null) {
        vErrors = [err7];
      } else {
        vErrors.push(err7);
      }
      errors++;
    }
    if (data.metadata === undefined) {
      const err8 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'metadata' },
        message: "must have required property '" + 'metadata' + "'",
      };
      if (vErrors === null) {
        vErrors = [err8];
      } else {
        vErrors.push(err8);
      }
      errors++;
    }
    if (data.audit === undefined) {
      const err9 = {
        instancePath,
        schemaPath: '#/required',
        keyword: 'required',
        params: { missingProperty: 'audit' },
        message: "must have required property '" + 'audit' + "'",
      };
      if (vErrors === null) {
        vErrors = [err9];
      } else {
        vErrors.push(err9);
      }
      errors++;
    }
    if (data.message_id !== undefined) {
      let data0 = data.message_id;
      if (typeof data0 === 'string') {
        if (func3(data0) < 1) {
          const err10 = {
            instancePath: instancePath + '/message_id',
            schemaPath: '#/properties/message_id/minLength',
            keyword: 'minLength',
            params: { limit: 1 },
            message: 'must NOT have fewer than 1 characters',
          };
          if (vErrors === null) {
            vErrors = [err10];
          } else {
            vErrors.push(err10);
          }
          errors++;
        }
      } else {
        const err11 = {
          instancePath: instancePath + '/message_id',
          schemaPath: '#/properties/message_id/type',
          keyword: 'type',
          params: { type: 'string' },
          message: 'must be string',
        };
        if (vErrors === null) {
          vErrors = [err11];
        } else {
          vErrors.push(err11);
        }
        errors++;
      }
    }
    if (data.timestamp !== undefined) {
      let data1 = data.timestamp;
      if (data1 && typeof data1 == 'object' && !Array.isArray(data1)) {
        if (data1.executed_at === undefined) {
          const err12 = {
            instancePath: instancePath + '/timestamp',
            schemaPath: '#/properties/timestamp/required',
            keyword: 'required',
            params: { missingProperty: 'executed_at' },
            message: "must have required property '" + 'executed_at' + "'",
          };
          if (vErrors === null) {
            vErrors = [err12];
          } else {
            vErrors.push(err12);
          }
          errors++;
        }
        if (data1.timezone === undefined) {
          const err13 = {
            instancePath: instancePath + '/timestamp',
            schemaPath: '#/properties/timestamp/required',
            keyword: 'required',
            params: { missingProperty: 'timezone' },
            message: "must have required property '" + 'timezone' + "'",
          };
          if (vErrors === null) {
            vErrors = [err13];
          } else {
            vErrors.push(err13);
          }
          errors++;
        }
        if (data1.executed_at !== undefined) {
          let data2 = data1.executed_at;
          if (typeof data2 === 'string') {
            if (!formats0.validate(data2)) {
              const err14 = {
                instancePath: instancePath + '/timestamp/executed_at',
                schemaPath: '#/properties/timestamp/properties/executed_at/format',
                keyword: 'format',
                params: { format: 'date-time' },
                message: 'must match format "' + 'date-time' + '"',
              };
              if (vErrors === null) {
                vErrors = [err14];
              } else {
                vErrors.push(err14);
              }
              errors++;
            }
          } else {
            const err15 = {
              instancePath: instancePath + '/timestamp/executed_at',
              schemaPath: '#/properties/timestamp/properties/executed_at/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err15];
            } else {
              vErrors.push(err15);
            }
            errors++;
          }
        }
        if (data1.timezone !== undefined) {
          let data3 = data1.timezone;
          if (typeof data3 === 'string') {
            if (func3(data3) < 1) {
              const err16 = {
                instancePath: instancePath + '/timestamp/timezone',
                schemaPath: '#/properties/timestamp/properties/timezone/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err16];
              } else {
                vErrors.push(err16);
              }
              errors++;
            }
          } else {
            const err17 = {
              instancePath: instancePath + '/timestamp/timezone',
              schemaPath: '#/properties/timestamp/properties/timezone/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err17];
            } else {
              vErrors.push(err17);
            }
            errors++;
          }
        }
      } else {
        const err18 = {
          instancePath: instancePath + '/timestamp',
          schemaPath: '#/properties/timestamp/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err18];
        } else {
          vErrors.push(err18);
        }
        errors++;
      }
    }
    if (data.agent !== undefined) {
      let data4 = data.agent;
      if (data4 && typeof data4 == 'object' && !Array.isArray(data4)) {
        if (data4.name === undefined) {
          const err19 = {
            instancePath: instancePath + '/agent',
            schemaPath: '#/properties/agent/required',
            keyword: 'required',
            params: { missingProperty: 'name' },
            message: "must have required property '" + 'name' + "'",
          };
          if (vErrors === null) {
            vErrors = [err19];
          } else {
            vErrors.push(err19);
          }
          errors++;
        }
        if (data4.type === undefined) {
          const err20 = {
            instancePath: instancePath + '/agent',
            schemaPath: '#/properties/agent/required',
            keyword: 'required',
            params: { missingProperty: 'type' },
            message: "must have required property '" + 'type' + "'",
          };
          if (vErrors === null) {
            vErrors = [err20];
          } else {
            vErrors.push(err20);
          }
          errors++;
        }
        if (data4.name !== undefined) {
          if (typeof data4.name !== 'string') {
            const err21 = {
              instancePath: instancePath + '/agent/name',
              schemaPath: '#/properties/agent/properties/name/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err21];
            } else {
              vErrors.push(err21);
            }
            errors++;
          }
        }
        if (data4.type !== undefined) {
          if (typeof data4.type !== 'string') {
            const err22 = {
              instancePath: instancePath + '/agent/type',
              schemaPath: '#/properties/agent/properties/type/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err22];
            } else {
              vErrors.push(err22);
            }
            errors++;
          }
        }
      } else {
        const err23 = {
          instancePath: instancePath + '/agent',
          schemaPath: '#/properties/agent/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err23];
        } else {
          vErrors.push(err23);
        }
        errors++;
      }
    }
    if (data.input !== undefined) {
      let data7 = data.input;
      if (data7 && typeof data7 == 'object' && !Array.isArray(data7)) {
        if (data7.source === undefined) {
          const err24 = {
            instancePath: instancePath + '/input',
            schemaPath: '#/properties/input/required',
            keyword: 'required',
            params: { missingProperty: 'source' },
            message: "must have required property '" + 'source' + "'",
          };
          if (vErrors === null) {
            vErrors = [err24];
          } else {
            vErrors.push(err24);
          }
          errors++;
        }
        if (data7.content === undefined) {
          const err25 = {
            instancePath: instancePath + '/input',
            schemaPath: '#/properties/input/required',
            keyword: 'required',
            params: { missingProperty: 'content' },
            message: "must have required property '" + 'content' + "'",
          };
          if (vErrors === null) {
            vErrors = [err25];
          } else {
            vErrors.push(err25);
          }
          errors++;
        }
        if (data7.source !== undefined) {
          if (typeof data7.source !== 'string') {
            const err26 = {
              instancePath: instancePath + '/input/source',
              schemaPath: '#/properties/input/properties/source/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err26];
            } else {
              vErrors.push(err26);
            }
            errors++;
          }
        }
      } else {
        const err27 = {
          instancePath: instancePath + '/input',
          schemaPath: '#/properties/input/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err27];
        } else {
          vErrors.push(err27);
        }
        errors++;
      }
    }
    if (data.output !== undefined) {
      let data9 = data.output;
      if (data9 && typeof data9 == 'object' && !Array.isArray(data9)) {
        if (data9.content === undefined) {
          const err28 = {
            instancePath: instancePath + '/output',
            schemaPath: '#/properties/output/required',
            keyword: 'required',
            params: { missingProperty: 'content' },
            message: "must have required property '" + 'content' + "'",
          };
          if (vErrors === null) {
            vErrors = [err28];
          } else {
            vErrors.push(err28);
          }
          errors++;
        }
        if (data9.content_type === undefined) {
          const err29 = {
            instancePath: instancePath + '/output',
            schemaPath: '#/properties/output/required',
            keyword: 'required',
            params: { missingProperty: 'content_type' },
            message: "must have required property '" + 'content_type' + "'",
          };
          if (vErrors === null) {
            vErrors = [err29];
          } else {
            vErrors.push(err29);
          }
          errors++;
        }
        for (const key0 in data9) {
          if (!(key0 === 'content' || key0 === 'content_type')) {
            const err30 = {
              instancePath: instancePath + '/output',
              schemaPath: '#/properties/output/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key0 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err30];
            } else {
              vErrors.push(err30);
            }
            errors++;
          }
        }
        if (data9.content_type !== undefined) {
          let data10 = data9.content_type;
          if (typeof data10 === 'string') {
            if (func3(data10) < 1) {
              const err31 = {
                instancePath: instancePath + '/output/content_type',
                schemaPath: '#/properties/output/properties/content_type/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err31];
              } else {
                vErrors.push(err31);
              }
              errors++;
            }
          } else {
            const err32 = {
              instancePath: instancePath + '/output/content_type',
              schemaPath: '#/properties/output/properties/content_type/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err32];
            } else {
              vErrors.push(err32);
            }
            errors++;
          }
        }
      } else {
        const err33 = {
          instancePath: instancePath + '/output',
          schemaPath: '#/properties/output/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err33];
        } else {
          vErrors.push(err33);
        }
        errors++;
      }
    }
    if (data.next_agent !== undefined) {
      let data11 = data.next_agent;
      if (data11 && typeof data11 == 'object' && !Array.isArray(data11)) {
        if (data11.name === undefined) {
          const err34 = {
            instancePath: instancePath + '/next_agent',
            schemaPath: '#/properties/next_agent/required',
            keyword: 'required',
            params: { missingProperty: 'name' },
            message: "must have required property '" + 'name' + "'",
          };
          if (vErrors === null) {
            vErrors = [err34];
          } else {
            vErrors.push(err34);
          }
          errors++;
        }
        if (data11.reason === undefined) {
          const err35 = {
            instancePath: instancePath + '/next_agent',
            schemaPath: '#/properties/next_agent/required',
            keyword: 'required',
            params: { missingProperty: 'reason' },
            message: "must have required property '" + 'reason' + "'",
          };
          if (vErrors === null) {
            vErrors = [err35];
          } else {
            vErrors.push(err35);
          }
          errors++;
        }
        for (const key1 in data11) {
          if (!(key1 === 'name' || key1 === 'reason')) {
            const err36 = {
              instancePath: instancePath + '/next_agent',
              schemaPath: '#/properties/next_agent/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key1 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err36];
            } else {
              vErrors.push(err36);
            }
            errors++;
          }
        }
        if (data11.name !== undefined) {
          let data12 = data11.name;
          if (typeof data12 !== 'string' && data12 !== null) {
            const err37 = {
              instancePath: instancePath + '/next_agent/name',
              schemaPath: '#/properties/next_agent/properties/name/type',
              keyword: 'type',
              params: { type: schema14.properties.next_agent.properties.name.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err37];
            } else {
              vErrors.push(err37);
            }
            errors++;
          }
        }
        if (data11.reason !== undefined) {
          let data13 = data11.reason;
          if (typeof data13 !== 'string' && data13 !== null) {
            const err38 = {
              instancePath: instancePath + '/next_agent/reason',
              schemaPath: '#/properties/next_agent/properties/reason/type',
              keyword: 'type',
              params: { type: schema14.properties.next_agent.properties.reason.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err38];
            } else {
              vErrors.push(err38);
            }
            errors++;
          }
        }
      } else {
        const err39 = {
          instancePath: instancePath + '/next_agent',
          schemaPath: '#/properties/next_agent/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err39];
        } else {
          vErrors.push(err39);
        }
        errors++;
      }
    }
    if (data.status !== undefined) {
      let data14 = data.status;
      if (data14 && typeof data14 == 'object' && !Array.isArray(data14)) {
        if (data14.code === undefined) {
          const err40 = {
            instancePath: instancePath + '/status',
            schemaPath: '#/properties/status/required',
            keyword: 'required',
            params: { missingProperty: 'code' },
            message: "must have required property '" + 'code' + "'",
          };
          if (vErrors === null) {
            vErrors = [err40];
          } else {
            vErrors.push(err40);
          }
          errors++;
        }
        if (data14.message === undefined) {
          const err41 = {
            instancePath: instancePath + '/status',
            schemaPath: '#/properties/status/required',
            keyword: 'required',
            params: { missingProperty: 'message' },
            message: "must have required property '" + 'message' + "'",
          };
          if (vErrors === null) {
            vErrors = [err41];
          } else {
            vErrors.push(err41);
          }
          errors++;
        }
        for (const key2 in data14) {
          if (!(key2 === 'code' || key2 === 'message')) {
            const err42 = {
              instancePath: instancePath + '/status',
              schemaPath: '#/properties/status/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key2 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err42];
            } else {
              vErrors.push(err42);
            }
            errors++;
          }
        }
        if (data14.code !== undefined) {
          let data15 = data14.code;
          if (!(data15 === 'success' || data15 === 'partial' || data15 === 'failed' || data15 === 'pending')) {
            const err43 = {
              instancePath: instancePath + '/status/code',
              schemaPath: '#/properties/status/properties/code/enum',
              keyword: 'enum',
              params: { allowedValues: schema14.properties.status.properties.code.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err43];
            } else {
              vErrors.push(err43);
            }
            errors++;
          }
        }
        if (data14.message !== undefined) {
          if (typeof data14.message !== 'string') {
            const err44 = {
              instancePath: instancePath + '/status/message',
              schemaPath: '#/properties/status/properties/message/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err44];
            } else {
              vErrors.push(err44);
            }
            errors++;
          }
        }
      } else {
        const err45 = {
          instancePath: instancePath + '/status',
          schemaPath: '#/properties/status/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err45];
        } else {
          vErrors.push(err45);
        }
        errors++;
      }
    }
    if (data.error !== undefined) {
      let data17 = data.error;
      const _errs39 = errors;
      let valid7 = true;
      const _errs40 = errors;
      if (data17 && typeof data17 == 'object' && !Array.isArray(data17)) {
        if (data17.has_error !== undefined) {
          if (true !== data17.has_error) {
            const err46 = {};
            if (vErrors === null) {
              vErrors = [err46];
            } else {
              vErrors.push(err46);
            }
            errors++;
          }
        }
      }
      var _valid0 = _errs40 === errors;
      errors = _errs39;
      if (vErrors !== null) {
        if (_errs39) {
          vErrors.length = _errs39;
        } else {
          vErrors = null;
        }
      }
      if (_valid0) {
        const _errs42 = errors;
        if (data17 && typeof data17 == 'object' && !Array.isArray(data17)) {
          if (data17.error_code !== undefined) {
            let data19 = data17.error_code;
            if (!(
              data19 === 'OUT_OF_SCOPE' ||
              data19 === 'INVALID_INPUT' ||
              data19 === 'PROCESSING_ERROR' ||
              data19 === 'TIMEOUT' ||
              data19 === 'DEPENDENCY_ERROR' ||
              data19 === 'VALIDATION_ERROR' ||
              data19 === 'BUDGET_EXCEEDED' ||
              data19 === 'LOOP_DETECTED'
            )) {
              const err47 = {
                instancePath: instancePath + '/error/error_code',
                schemaPath: '#/properties/error/then/properties/error_code/enum',
                keyword: 'enum',
                params: { allowedValues: schema14.properties.error.then.properties.error_code.enum },
                message: 'must be equal to one of the allowed values',
              };
              if (vErrors === null) {
                vErrors = [err47];
              } else {
                vErrors.push(err47);
              }
              errors++;
            }
          }
        }
        var _valid0 = _errs42 === errors;
        valid7 = _valid0;
      }
      if (!valid7) {
        const err48 = {
          instancePath: instancePath + '/error',
          schemaPath: '#/properties/error/if',
          keyword: 'if',
          params: { failingKeyword: 'then' },
          message: 'must match "then" schema',
        };
        if (vErrors === null) {
          vErrors = [err48];
        } else {
          vErrors.push(err48);
        }
        errors++;
      }
      if (data17 && typeof data17 == 'object' && !Array.isArray(data17)) {
        if (data17.has_error === undefined) {
          const err49 = {
            instancePath: instancePath + '/error',
            schemaPath: '#/properties/error/required',
            keyword: 'required',
            params: { missingProperty: 'has_error' },
            message: "must have required property '" + 'has_error' + "'",
          };
          if (vErrors === null) {
            vErrors = [err49];
          } else {
            vErrors.push(err49);
          }
          errors++;
        }
        if (data17.error_code === undefined) {
          const err50 = {
            instancePath: instancePath + '/error',
            schemaPath: '#/properties/error/required',
            keyword: 'required',
            params: { missingProperty: 'error_code' },
            message: "must have required property '" + 'error_code' + "'",
          };
          if (vErrors === null) {
            vErrors = [err50];
          } else {
            vErrors.push(err50);
          }
          errors++;
        }
        if (data17.error_message === undefined) {
          const err51 = {
            instancePath: instancePath + '/error',
            schemaPath: '#/properties/error/required',
            keyword: 'required',
            params: { missingProperty: 'error_message' },
            message: "must have required property '" + 'error_message' + "'",
          };
          if (vErrors === null) {
            vErrors = [err51];
          } else {
            vErrors.push(err51);
          }
          errors++;
        }
        if (data17.retry_count === undefined) {
          const err52 = {
            instancePath: instancePath + '/error',
            schemaPath: '#/properties/error/required',
            keyword: 'required',
            params: { missingProperty: 'retry_count' },
            message: "must have required property '" + 'retry_count' + "'",
          };
          if (vErrors === null) {
            vErrors = [err52];
          } else {
            vErrors.push(err52);
          }
          errors++;
        }
        if (data17.recoverable === undefined) {
          const err53 = {
            instancePath: instancePath + '/error',
            schemaPath: '#/properties/error/required',
            keyword: 'required',
            params: { missingProperty: 'recoverable' },
            message: "must have required property '" + 'recoverable' + "'",
          };
          if (vErrors === null) {
            vErrors = [err53];
          } else {
            vErrors.push(err53);
          }
          errors++;
        }
        for (const key3 in data17) {
          if (!(
            key3 === 'has_error' ||
            key3 === 'error_code' ||
            key3 === 'error_message' ||
            key3 === 'retry_count' ||
            key3 === 'recoverable'
          )) {
            const err54 = {
              instancePath: instancePath + '/error',
              schemaPath: '#/properties/error/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key3 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err54];
            } else {
              vErrors.push(err54);
            }
            errors++;
          }
        }
        if (data17.has_error !== undefined) {
          if (typeof data17.has_error !== 'boolean') {
            const err55 = {
              instancePath: instancePath + '/error/has_error',
              schemaPath: '#/properties/error/properties/has_error/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err55];
            } else {
              vErrors.push(err55);
            }
            errors++;
          }
        }
        if (data17.error_code !== undefined) {
          let data21 = data17.error_code;
          const _errs48 = errors;
          let valid11 = false;
          const _errs49 = errors;
          if (!(
            data21 === 'OUT_OF_SCOPE' ||
            data21 === 'INVALID_INPUT' ||
            data21 === 'PROCESSING_ERROR' ||
            data21 === 'TIMEOUT' ||
            data21 === 'DEPENDENCY_ERROR' ||
            data21 === 'VALIDATION_ERROR' ||
            data21 === 'BUDGET_EXCEEDED' ||
            data21 === 'LOOP_DETECTED'
          )) {
            const err56 = {
              instancePath: instancePath + '/error/error_code',
              schemaPath: '#/properties/error/properties/error_code/anyOf/0/enum',
              keyword: 'enum',
              params: { allowedValues: schema14.properties.error.properties.error_code.anyOf[0].enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err56];
            } else {
              vErrors.push(err56);
            }
            errors++;
          }
          var _valid1 = _errs49 === errors;
          valid11 = valid11 || _valid1;
          if (!valid11) {
            const _errs50 = errors;
            if (data21 !== null) {
              const err57 = {
                instancePath: instancePath + '/error/error_code',
                schemaPath: '#/properties/error/properties/error_code/anyOf/1/type',
                keyword: 'type',
                params: { type: 'null' },
                message: 'must be null',
              };
              if (vErrors === null) {
                vErrors = [err57];
              } else {
                vErrors.push(err57);
              }
              errors++;
            }
            var _valid1 = _errs50 === errors;
            valid11 = valid11 || _valid1;
          }
          if (!valid11) {
            const err58 = {
              instancePath: instancePath + '/error/error_code',
              schemaPath: '#/properties/error/properties/error_code/anyOf',
              keyword: 'anyOf',
              params: {},
              message: 'must match a schema in anyOf',
            };
            if (vErrors === null) {
              vErrors = [err58];
            } else {
              vErrors.push(err58);
            }
            errors++;
          } else {
            errors = _errs48;
            if (vErrors !== null) {
              if (_errs48) {
                vErrors.length = _errs48;
              } else {
                vErrors = null;
              }
            }
          }
        }
        if (data17.error_message !== undefined) {
          let data22 = data17.error_message;
          if (typeof data22 !== 'string' && data22 !== null) {
            const err59 = {
              instancePath: instancePath + '/error/error_message',
              schemaPath: '#/properties/error/properties/error_message/type',
              keyword: 'type',
              params: { type: schema14.properties.error.properties.error_message.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err59];
            } else {
              vErrors.push(err59);
            }
            errors++;
          }
        }
        if (data17.retry_count !== undefined) {
          let data23 = data17.retry_count;
          if (!(typeof data23 == 'number' && !(data23 % 1) && !isNaN(data23))) {
            const err60 = {
              instancePath: instancePath + '/error/retry_count',
              schemaPath: '#/properties/error/properties/retry_count/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err60];
            } else {
              vErrors.push(err60);
            }
            errors++;
          }
          if (typeof data23 == 'number') {
            if (data23 < 0 || isNaN(data23)) {
              const err61 = {
                instancePath: instancePath + '/error/retry_count',
                schemaPath: '#/properties/error/properties/retry_count/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err61];
              } else {
                vErrors.push(err61);
              }
              errors++;
            }
          }
        }
        if (data17.recoverable !== undefined) {
          if (typeof data17.recoverable !== 'boolean') {
            const err62 = {
              instancePath: instancePath + '/error/recoverable',
              schemaPath: '#/properties/error/properties/recoverable/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err62];
            } else {
              vErrors.push(err62);
            }
            errors++;
          }
        }
      } else {
        const err63 = {
          instancePath: instancePath + '/error',
          schemaPath: '#/properties/error/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err63];
        } else {
          vErrors.push(err63);
        }
        errors++;
      }
    }
    if (data.metadata !== undefined) {
      let data25 = data.metadata;
      if (data25 && typeof data25 == 'object' && !Array.isArray(data25)) {
        if (data25.session_id === undefined) {
          const err64 = {
            instancePath: instancePath + '/metadata',
            schemaPath: '#/properties/metadata/required',
            keyword: 'required',
            params: { missingProperty: 'session_id' },
            message: "must have required property '" + 'session_id' + "'",
          };
          if (vErrors === null) {
            vErrors = [err64];
          } else {
            vErrors.push(err64);
          }
          errors++;
        }
        if (data25.request_id === undefined) {
          const err65 = {
            instancePath: instancePath + '/metadata',
            schemaPath: '#/properties/metadata/required',
            keyword: 'required',
            params: { missingProperty: 'request_id' },
            message: "must have required property '" + 'request_id' + "'",
          };
          if (vErrors === null) {
            vErrors = [err65];
          } else {
            vErrors.push(err65);
          }
          errors++;
        }
        if (data25.sequence_number === undefined) {
          const err66 = {
            instancePath: instancePath + '/metadata',
            schemaPath: '#/properties/metadata/required',
            keyword: 'required',
            params: { missingProperty: 'sequence_number' },
            message: "must have required property '" + 'sequence_number' + "'",
          };
          if (vErrors === null) {
            vErrors = [err66];
          } else {
            vErrors.push(err66);
          }
          errors++;
        }
        if (data25.parent_message_id === undefined) {
          const err67 = {
            instancePath: instancePath + '/metadata',
            schemaPath: '#/properties/metadata/required',
            keyword: 'required',
            params: { missingProperty: 'parent_message_id' },
            message: "must have required property '" + 'parent_message_id' + "'",
          };
          if (vErrors === null) {
            vErrors = [err67];
          } else {
            vErrors.push(err67);
          }
          errors++;
        }
        if (data25.session_id !== undefined) {
          if (typeof data25.session_id !== 'string') {
            const err68 = {
              instancePath: instancePath + '/metadata/session_id',
              schemaPath: '#/properties/metadata/properties/session_id/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err68];
            } else {
              vErrors.push(err68);
            }
            errors++;
          }
        }
        if (data25.request_id !== undefined) {
          if (typeof data25.request_id !== 'string') {
            const err69 = {
              instancePath: instancePath + '/metadata/request_id',
              schemaPath: '#/properties/metadata/properties/request_id/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err69];
            } else {
              vErrors.push(err69);
            }
            errors++;
          }
        }
        if (data25.sequence_number !== undefined) {
          let data28 = data25.sequence_number;
          if (!(typeof data28 == 'number' && !(data28 % 1) && !isNaN(data28))) {
            const err70 = {
              instancePath: instancePath + '/metadata/sequence_number',
              schemaPath: '#/properties/metadata/properties/sequence_number/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err70];
            } else {
              vErrors.push(err70);
            }
            errors++;
          }
          if (typeof data28 == 'number') {
            if (data28 < 1 || isNaN(data28)) {
              const err71 = {
                instancePath: instancePath + '/metadata/sequence_number',
                schemaPath: '#/properties/metadata/properties/sequence_number/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err71];
              } else {
                vErrors.push(err71);
              }
              errors++;
            }
          }
        }
        if (data25.parent_message_id !== undefined) {
          let data29 = data25.parent_message_id;
          if (typeof data29 !== 'string' && data29 !== null) {
            const err72 = {
              instancePath: instancePath + '/metadata/parent_message_id',
              schemaPath: '#/properties/metadata/properties/parent_message_id/type',
              keyword: 'type',
              params: { type: schema14.properties.metadata.properties.parent_message_id.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err72];
            } else {
              vErrors.push(err72);
            }
            errors++;
          }
        }
      } else {
        const err73 = {
          instancePath: instancePath + '/metadata',
          schemaPath: '#/properties/metadata/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err73];
        } else {
          vErrors.push(err73);
        }
        errors++;
      }
    }
    if (data.audit !== undefined) {
      let data30 = data.audit;
      if (data30 && typeof data30 == 'object' && !Array.isArray(data30)) {
        if (data30.compliance_notes === undefined) {
          const err74 = {
            instancePath: instancePath + '/audit',
            schemaPath: '#/properties/audit/required',
            keyword: 'required',
            params: { missingProperty: 'compliance_notes' },
            message: "must have required property '" + 'compliance_notes' + "'",
          };
          if (vErrors === null) {
            vErrors = [err74];
          } else {
            vErrors.push(err74);
          }
          errors++;
        }
        if (data30.governance_files_consulted === undefined) {
          const err75 = {
            instancePath: instancePath + '/audit',
            schemaPath: '#/properties/audit/required',
            keyword: 'required',
            params: { missingProperty: 'governance_files_consulted' },
            message: "must have required property '" + 'governance_files_consulted' + "'",
          };
          if (vErrors === null) {
            vErrors = [err75];
          } else {
            vErrors.push(err75);
          }
          errors++;
        }
        if (data30.compliance_notes !== undefined) {
          let data31 = data30.compliance_notes;
          if (typeof data31 !== 'string' && data31 !== null) {
            const err76 = {
              instancePath: instancePath + '/audit/compliance_notes',
              schemaPath: '#/properties/audit/properties/compliance_notes/type',
              keyword: 'type',
              params: { type: schema14.properties.audit.properties.compliance_notes.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err76];
            } else {
              vErrors.push(err76);
            }
            errors++;
          }
        }
        if (data30.governance_files_consulted !== undefined) {
          let data32 = data30.governance_files_consulted;
          const _errs73 = errors;
          let valid14 = false;
          const _errs74 = errors;
          if (Array.isArray(data32)) {
            const len0 = data32.length;
            for (let i0 = 0; i0 < len0; i0++) {
              if (typeof data32[i0] !== 'string') {
                const err77 = {
                  instancePath: instancePath + '/audit/governance_files_consulted/' + i0,
                  schemaPath: '#/properties/audit/properties/governance_files_consulted/anyOf/0/items/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err77];
                } else {
                  vErrors.push(err77);
                }
                errors++;
              }
            }
          } else {
            const err78 = {
              instancePath: instancePath + '/audit/governance_files_consulted',
              schemaPath: '#/properties/audit/properties/governance_files_consulted/anyOf/0/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err78];
            } else {
              vErrors.push(err78);
            }
            errors++;
          }
          var _valid2 = _errs74 === errors;
          valid14 = valid14 || _valid2;
          if (!valid14) {
            const _errs78 = errors;
            if (data32 !== null) {
              const err79 = {
                instancePath: instancePath + '/audit/governance_files_consulted',
                schemaPath: '#/properties/audit/properties/governance_files_consulted/anyOf/1/type',
                keyword: 'type',
                params: { type: 'null' },
                message: 'must be null',
              };
              if (vErrors === null) {
                vErrors = [err79];
              } else {
                vErrors.push(err79);
              }
              errors++;
            }
            var _valid2 = _errs78 === errors;
            valid14 = valid14 || _valid2;
          }
          if (!valid14) {
            const err80 = {
              instancePath: instancePath + '/audit/governance_files_consulted',
              schemaPath: '#/properties/audit/properties/governance_files_consulted/anyOf',
              keyword: 'anyOf',
              params: {},
              message: 'must match a schema in anyOf',
            };
            if (vErrors === null) {
              vErrors = [err80];
            } else {
              vErrors.push(err80);
            }
            errors++;
          } else {
            errors = _errs73;
            if (vErrors !== null) {
              if (_errs73) {
                vErrors.length = _errs73;
              } else {
                vErrors = null;
              }
            }
          }
        }
      } else {
        const err81 = {
          instancePath: instancePath + '/audit',
          schemaPath: '#/properties/audit/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err81];
        } else {
          vErrors.push(err81);
        }
        errors++;
      }
    }
  } else {
    const err82 = {
      instancePath,
      schemaPath: '#/type',
      keyword: 'type',
      params: { type: 'object' },
      message: 'must be object',
    };
    if (vErrors === null) {
      vErrors = [err82];
    } else {
      vErrors.push(err82);
    }
    errors++;
  }
  validate13.errors = vErrors;
  return errors === 0;
}
