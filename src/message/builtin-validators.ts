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
      properties: { schema: { type: ['string', 'null'] }, max_depth: { type: 'integer', minimum: 4, maximum: 1000 } },
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
const pattern5 = new RegExp('^https?://[^\\s]+$', 'u');
const pattern6 = new RegExp('^[A-Za-z_][A-Za-z0-9_]*$', 'u');
const pattern7 = new RegExp('^[a-z_][a-z0-9_]{0,62}$', 'u');
const pattern8 = new RegExp('^[A-Za-z0-9_.-]+$', 'u');
const pattern11 = new RegExp('^[a-z][a-z0-9_]*$', 'u');
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
          if (!(key10 === 'schema' || key10 === 'max_depth')) {
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
      } else {
        const err93 = {
          instancePath: instancePath + '/message',
          schemaPath: '#/properties/message/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err93];
        } else {
          vErrors.push(err93);
        }
        errors++;
      }
    }
    if (data.prompt !== undefined) {
      let data51 = data.prompt;
      if (data51 && typeof data51 == 'object' && !Array.isArray(data51)) {
        for (const key11 in data51) {
          if (!(key11 === 'include')) {
            const err94 = {
              instancePath: instancePath + '/prompt',
              schemaPath: '#/properties/prompt/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key11 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err94];
            } else {
              vErrors.push(err94);
            }
            errors++;
          }
        }
        if (data51.include !== undefined) {
          let data52 = data51.include;
          if (Array.isArray(data52)) {
            const len0 = data52.length;
            for (let i0 = 0; i0 < len0; i0++) {
              let data53 = data52[i0];
              if (typeof data53 === 'string') {
                if (func3(data53) < 1) {
                  const err95 = {
                    instancePath: instancePath + '/prompt/include/' + i0,
                    schemaPath: '#/properties/prompt/properties/include/items/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err95];
                  } else {
                    vErrors.push(err95);
                  }
                  errors++;
                }
              } else {
                const err96 = {
                  instancePath: instancePath + '/prompt/include/' + i0,
                  schemaPath: '#/properties/prompt/properties/include/items/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err96];
                } else {
                  vErrors.push(err96);
                }
                errors++;
              }
            }
          } else {
            const err97 = {
              instancePath: instancePath + '/prompt/include',
              schemaPath: '#/properties/prompt/properties/include/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
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
          instancePath: instancePath + '/prompt',
          schemaPath: '#/properties/prompt/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err98];
        } else {
          vErrors.push(err98);
        }
        errors++;
      }
    }
    if (data.daemon !== undefined) {
      let data54 = data.daemon;
      if (data54 && typeof data54 == 'object' && !Array.isArray(data54)) {
        for (const key12 in data54) {
          if (!(key12 === 'shutdown_grace_ms' || key12 === 'fsync')) {
            const err99 = {
              instancePath: instancePath + '/daemon',
              schemaPath: '#/properties/daemon/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key12 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err99];
            } else {
              vErrors.push(err99);
            }
            errors++;
          }
        }
        if (data54.shutdown_grace_ms !== undefined) {
          let data55 = data54.shutdown_grace_ms;
          if (!(typeof data55 == 'number' && !(data55 % 1) && !isNaN(data55))) {
            const err100 = {
              instancePath: instancePath + '/daemon/shutdown_grace_ms',
              schemaPath: '#/properties/daemon/properties/shutdown_grace_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err100];
            } else {
              vErrors.push(err100);
            }
            errors++;
          }
          if (typeof data55 == 'number') {
            if (data55 < 0 || isNaN(data55)) {
              const err101 = {
                instancePath: instancePath + '/daemon/shutdown_grace_ms',
                schemaPath: '#/properties/daemon/properties/shutdown_grace_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 0 },
                message: 'must be >= 0',
              };
              if (vErrors === null) {
                vErrors = [err101];
              } else {
                vErrors.push(err101);
              }
              errors++;
            }
          }
        }
        if (data54.fsync !== undefined) {
          if (typeof data54.fsync !== 'boolean') {
            const err102 = {
              instancePath: instancePath + '/daemon/fsync',
              schemaPath: '#/properties/daemon/properties/fsync/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err102];
            } else {
              vErrors.push(err102);
            }
            errors++;
          }
        }
      } else {
        const err103 = {
          instancePath: instancePath + '/daemon',
          schemaPath: '#/properties/daemon/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err103];
        } else {
          vErrors.push(err103);
        }
        errors++;
      }
    }
    if (data.audit !== undefined) {
      let data57 = data.audit;
      if (data57 && typeof data57 == 'object' && !Array.isArray(data57)) {
        for (const key13 in data57) {
          if (!(
            key13 === 'signing_key' ||
            key13 === 'checkpoint_ms' ||
            key13 === 'witnesses' ||
            key13 === 'retention'
          )) {
            const err104 = {
              instancePath: instancePath + '/audit',
              schemaPath: '#/properties/audit/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key13 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err104];
            } else {
              vErrors.push(err104);
            }
            errors++;
          }
        }
        if (data57.signing_key !== undefined) {
          let data58 = data57.signing_key;
          if (typeof data58 !== 'string' && data58 !== null) {
            const err105 = {
              instancePath: instancePath + '/audit/signing_key',
              schemaPath: '#/properties/audit/properties/signing_key/type',
              keyword: 'type',
              params: { type: schema11.properties.audit.properties.signing_key.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err105];
            } else {
              vErrors.push(err105);
            }
            errors++;
          }
        }
        if (data57.checkpoint_ms !== undefined) {
          let data59 = data57.checkpoint_ms;
          if (!(typeof data59 == 'number' && !(data59 % 1) && !isNaN(data59))) {
            const err106 = {
              instancePath: instancePath + '/audit/checkpoint_ms',
              schemaPath: '#/properties/audit/properties/checkpoint_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err106];
            } else {
              vErrors.push(err106);
            }
            errors++;
          }
          if (typeof data59 == 'number') {
            if (data59 < 1 || isNaN(data59)) {
              const err107 = {
                instancePath: instancePath + '/audit/checkpoint_ms',
                schemaPath: '#/properties/audit/properties/checkpoint_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err107];
              } else {
                vErrors.push(err107);
              }
              errors++;
            }
          }
        }
        if (data57.witnesses !== undefined) {
          let data60 = data57.witnesses;
          if (Array.isArray(data60)) {
            const len1 = data60.length;
            for (let i1 = 0; i1 < len1; i1++) {
              let data61 = data60[i1];
              if (typeof data61 === 'string') {
                if (func3(data61) < 1) {
                  const err108 = {
                    instancePath: instancePath + '/audit/witnesses/' + i1,
                    schemaPath: '#/properties/audit/properties/witnesses/items/minLength',
                    keyword: 'minLength',
                    params: { limit: 1 },
                    message: 'must NOT have fewer than 1 characters',
                  };
                  if (vErrors === null) {
                    vErrors = [err108];
                  } else {
                    vErrors.push(err108);
                  }
                  errors++;
                }
              } else {
                const err109 = {
                  instancePath: instancePath + '/audit/witnesses/' + i1,
                  schemaPath: '#/properties/audit/properties/witnesses/items/type',
                  keyword: 'type',
                  params: { type: 'string' },
                  message: 'must be string',
                };
                if (vErrors === null) {
                  vErrors = [err109];
                } else {
                  vErrors.push(err109);
                }
                errors++;
              }
            }
          } else {
            const err110 = {
              instancePath: instancePath + '/audit/witnesses',
              schemaPath: '#/properties/audit/properties/witnesses/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err110];
            } else {
              vErrors.push(err110);
            }
            errors++;
          }
        }
        if (data57.retention !== undefined) {
          let data62 = data57.retention;
          if (data62 && typeof data62 == 'object' && !Array.isArray(data62)) {
            for (const key14 in data62) {
              if (!(key14 === 'keep_days' || key14 === 'archive' || key14 === 'delete_after_days')) {
                const err111 = {
                  instancePath: instancePath + '/audit/retention',
                  schemaPath: '#/properties/audit/properties/retention/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key14 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err111];
                } else {
                  vErrors.push(err111);
                }
                errors++;
              }
            }
            if (data62.keep_days !== undefined) {
              let data63 = data62.keep_days;
              if (!(typeof data63 == 'number' && !(data63 % 1) && !isNaN(data63)) && data63 !== null) {
                const err112 = {
                  instancePath: instancePath + '/audit/retention/keep_days',
                  schemaPath: '#/properties/audit/properties/retention/properties/keep_days/type',
                  keyword: 'type',
                  params: { type: schema11.properties.audit.properties.retention.properties.keep_days.type },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err112];
                } else {
                  vErrors.push(err112);
                }
                errors++;
              }
              if (typeof data63 == 'number') {
                if (data63 < 1 || isNaN(data63)) {
                  const err113 = {
                    instancePath: instancePath + '/audit/retention/keep_days',
                    schemaPath: '#/properties/audit/properties/retention/properties/keep_days/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err113];
                  } else {
                    vErrors.push(err113);
                  }
                  errors++;
                }
              }
            }
            if (data62.archive !== undefined) {
              if (!(data62.archive === 'gzip')) {
                const err114 = {
                  instancePath: instancePath + '/audit/retention/archive',
                  schemaPath: '#/properties/audit/properties/retention/properties/archive/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.audit.properties.retention.properties.archive.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err114];
                } else {
                  vErrors.push(err114);
                }
                errors++;
              }
            }
            if (data62.delete_after_days !== undefined) {
              let data65 = data62.delete_after_days;
              if (!(typeof data65 == 'number' && !(data65 % 1) && !isNaN(data65)) && data65 !== null) {
                const err115 = {
                  instancePath: instancePath + '/audit/retention/delete_after_days',
                  schemaPath: '#/properties/audit/properties/retention/properties/delete_after_days/type',
                  keyword: 'type',
                  params: { type: schema11.properties.audit.properties.retention.properties.delete_after_days.type },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err115];
                } else {
                  vErrors.push(err115);
                }
                errors++;
              }
              if (typeof data65 == 'number') {
                if (data65 < 1 || isNaN(data65)) {
                  const err116 = {
                    instancePath: instancePath + '/audit/retention/delete_after_days',
                    schemaPath: '#/properties/audit/properties/retention/properties/delete_after_days/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err116];
                  } else {
                    vErrors.push(err116);
                  }
                  errors++;
                }
              }
            }
          } else {
            const err117 = {
              instancePath: instancePath + '/audit/retention',
              schemaPath: '#/properties/audit/properties/retention/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err117];
            } else {
              vErrors.push(err117);
            }
            errors++;
          }
        }
      } else {
        const err118 = {
          instancePath: instancePath + '/audit',
          schemaPath: '#/properties/audit/type',
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
    if (data.telemetry !== undefined) {
      let data66 = data.telemetry;
      if (data66 && typeof data66 == 'object' && !Array.isArray(data66)) {
        for (const key15 in data66) {
          if (!(key15 === 'otlp_endpoint' || key15 === 'capture_content' || key15 === 'service_name')) {
            const err119 = {
              instancePath: instancePath + '/telemetry',
              schemaPath: '#/properties/telemetry/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key15 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err119];
            } else {
              vErrors.push(err119);
            }
            errors++;
          }
        }
        if (data66.otlp_endpoint !== undefined) {
          let data67 = data66.otlp_endpoint;
          if (typeof data67 !== 'string' && data67 !== null) {
            const err120 = {
              instancePath: instancePath + '/telemetry/otlp_endpoint',
              schemaPath: '#/properties/telemetry/properties/otlp_endpoint/type',
              keyword: 'type',
              params: { type: schema11.properties.telemetry.properties.otlp_endpoint.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err120];
            } else {
              vErrors.push(err120);
            }
            errors++;
          }
          if (typeof data67 === 'string') {
            if (!pattern1.test(data67)) {
              const err121 = {
                instancePath: instancePath + '/telemetry/otlp_endpoint',
                schemaPath: '#/properties/telemetry/properties/otlp_endpoint/pattern',
                keyword: 'pattern',
                params: { pattern: '^https?://' },
                message: 'must match pattern "' + '^https?://' + '"',
              };
              if (vErrors === null) {
                vErrors = [err121];
              } else {
                vErrors.push(err121);
              }
              errors++;
            }
          }
        }
        if (data66.capture_content !== undefined) {
          if (typeof data66.capture_content !== 'boolean') {
            const err122 = {
              instancePath: instancePath + '/telemetry/capture_content',
              schemaPath: '#/properties/telemetry/properties/capture_content/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
            };
            if (vErrors === null) {
              vErrors = [err122];
            } else {
              vErrors.push(err122);
            }
            errors++;
          }
        }
        if (data66.service_name !== undefined) {
          let data69 = data66.service_name;
          if (typeof data69 === 'string') {
            if (func3(data69) < 1) {
              const err123 = {
                instancePath: instancePath + '/telemetry/service_name',
                schemaPath: '#/properties/telemetry/properties/service_name/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err123];
              } else {
                vErrors.push(err123);
              }
              errors++;
            }
          } else {
            const err124 = {
              instancePath: instancePath + '/telemetry/service_name',
              schemaPath: '#/properties/telemetry/properties/service_name/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err124];
            } else {
              vErrors.push(err124);
            }
            errors++;
          }
        }
      } else {
        const err125 = {
          instancePath: instancePath + '/telemetry',
          schemaPath: '#/properties/telemetry/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err125];
        } else {
          vErrors.push(err125);
        }
        errors++;
      }
    }
    if (data.http !== undefined) {
      let data70 = data.http;
      if (data70 && typeof data70 == 'object' && !Array.isArray(data70)) {
        for (const key16 in data70) {
          if (!(
            key16 === 'listen' ||
            key16 === 'tokens' ||
            key16 === 'max_body_bytes' ||
            key16 === 'heartbeat_ms' ||
            key16 === 'request_timeout_ms' ||
            key16 === 'rate_limit' ||
            key16 === 'max_queued'
          )) {
            const err126 = {
              instancePath: instancePath + '/http',
              schemaPath: '#/properties/http/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key16 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err126];
            } else {
              vErrors.push(err126);
            }
            errors++;
          }
        }
        if (data70.listen !== undefined) {
          let data71 = data70.listen;
          if (typeof data71 !== 'string' && data71 !== null) {
            const err127 = {
              instancePath: instancePath + '/http/listen',
              schemaPath: '#/properties/http/properties/listen/type',
              keyword: 'type',
              params: { type: schema11.properties.http.properties.listen.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err127];
            } else {
              vErrors.push(err127);
            }
            errors++;
          }
          if (typeof data71 === 'string') {
            if (!pattern2.test(data71)) {
              const err128 = {
                instancePath: instancePath + '/http/listen',
                schemaPath: '#/properties/http/properties/listen/pattern',
                keyword: 'pattern',
                params: { pattern: '^\\[?[^\\s]+\\]?:[0-9]{1,5}$' },
                message: 'must match pattern "' + '^\\[?[^\\s]+\\]?:[0-9]{1,5}$' + '"',
              };
              if (vErrors === null) {
                vErrors = [err128];
              } else {
                vErrors.push(err128);
              }
              errors++;
            }
          }
        }
        if (data70.tokens !== undefined) {
          let data72 = data70.tokens;
          if (Array.isArray(data72)) {
            const len2 = data72.length;
            for (let i2 = 0; i2 < len2; i2++) {
              let data73 = data72[i2];
              if (data73 && typeof data73 == 'object' && !Array.isArray(data73)) {
                if (data73.user === undefined) {
                  const err129 = {
                    instancePath: instancePath + '/http/tokens/' + i2,
                    schemaPath: '#/properties/http/properties/tokens/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'user' },
                    message: "must have required property '" + 'user' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err129];
                  } else {
                    vErrors.push(err129);
                  }
                  errors++;
                }
                if (data73.sha256 === undefined) {
                  const err130 = {
                    instancePath: instancePath + '/http/tokens/' + i2,
                    schemaPath: '#/properties/http/properties/tokens/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'sha256' },
                    message: "must have required property '" + 'sha256' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err130];
                  } else {
                    vErrors.push(err130);
                  }
                  errors++;
                }
                for (const key17 in data73) {
                  if (!(key17 === 'user' || key17 === 'sha256' || key17 === 'role')) {
                    const err131 = {
                      instancePath: instancePath + '/http/tokens/' + i2,
                      schemaPath: '#/properties/http/properties/tokens/items/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key17 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err131];
                    } else {
                      vErrors.push(err131);
                    }
                    errors++;
                  }
                }
                if (data73.user !== undefined) {
                  let data74 = data73.user;
                  if (typeof data74 === 'string') {
                    if (!pattern0.test(data74)) {
                      const err132 = {
                        instancePath: instancePath + '/http/tokens/' + i2 + '/user',
                        schemaPath: '#/properties/http/properties/tokens/items/properties/user/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^[A-Za-z0-9._@-]{1,128}$' },
                        message: 'must match pattern "' + '^[A-Za-z0-9._@-]{1,128}$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err132];
                      } else {
                        vErrors.push(err132);
                      }
                      errors++;
                    }
                  } else {
                    const err133 = {
                      instancePath: instancePath + '/http/tokens/' + i2 + '/user',
                      schemaPath: '#/properties/http/properties/tokens/items/properties/user/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err133];
                    } else {
                      vErrors.push(err133);
                    }
                    errors++;
                  }
                }
                if (data73.sha256 !== undefined) {
                  let data75 = data73.sha256;
                  if (typeof data75 === 'string') {
                    if (!pattern4.test(data75)) {
                      const err134 = {
                        instancePath: instancePath + '/http/tokens/' + i2 + '/sha256',
                        schemaPath: '#/properties/http/properties/tokens/items/properties/sha256/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^[0-9a-fA-F]{64}$' },
                        message: 'must match pattern "' + '^[0-9a-fA-F]{64}$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err134];
                      } else {
                        vErrors.push(err134);
                      }
                      errors++;
                    }
                  } else {
                    const err135 = {
                      instancePath: instancePath + '/http/tokens/' + i2 + '/sha256',
                      schemaPath: '#/properties/http/properties/tokens/items/properties/sha256/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err135];
                    } else {
                      vErrors.push(err135);
                    }
                    errors++;
                  }
                }
                if (data73.role !== undefined) {
                  let data76 = data73.role;
                  if (!(data76 === 'operator' || data76 === 'auditor' || data76 === 'admin')) {
                    const err136 = {
                      instancePath: instancePath + '/http/tokens/' + i2 + '/role',
                      schemaPath: '#/properties/http/properties/tokens/items/properties/role/enum',
                      keyword: 'enum',
                      params: { allowedValues: schema11.properties.http.properties.tokens.items.properties.role.enum },
                      message: 'must be equal to one of the allowed values',
                    };
                    if (vErrors === null) {
                      vErrors = [err136];
                    } else {
                      vErrors.push(err136);
                    }
                    errors++;
                  }
                }
              } else {
                const err137 = {
                  instancePath: instancePath + '/http/tokens/' + i2,
                  schemaPath: '#/properties/http/properties/tokens/items/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
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
              instancePath: instancePath + '/http/tokens',
              schemaPath: '#/properties/http/properties/tokens/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err138];
            } else {
              vErrors.push(err138);
            }
            errors++;
          }
        }
        if (data70.max_body_bytes !== undefined) {
          let data77 = data70.max_body_bytes;
          if (!(typeof data77 == 'number' && !(data77 % 1) && !isNaN(data77))) {
            const err139 = {
              instancePath: instancePath + '/http/max_body_bytes',
              schemaPath: '#/properties/http/properties/max_body_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err139];
            } else {
              vErrors.push(err139);
            }
            errors++;
          }
          if (typeof data77 == 'number') {
            if (data77 < 1 || isNaN(data77)) {
              const err140 = {
                instancePath: instancePath + '/http/max_body_bytes',
                schemaPath: '#/properties/http/properties/max_body_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err140];
              } else {
                vErrors.push(err140);
              }
              errors++;
            }
          }
        }
        if (data70.heartbeat_ms !== undefined) {
          let data78 = data70.heartbeat_ms;
          if (!(typeof data78 == 'number' && !(data78 % 1) && !isNaN(data78))) {
            const err141 = {
              instancePath: instancePath + '/http/heartbeat_ms',
              schemaPath: '#/properties/http/properties/heartbeat_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err141];
            } else {
              vErrors.push(err141);
            }
            errors++;
          }
          if (typeof data78 == 'number') {
            if (data78 > 15000 || isNaN(data78)) {
              const err142 = {
                instancePath: instancePath + '/http/heartbeat_ms',
                schemaPath: '#/properties/http/properties/heartbeat_ms/maximum',
                keyword: 'maximum',
                params: { comparison: '<=', limit: 15000 },
                message: 'must be <= 15000',
              };
              if (vErrors === null) {
                vErrors = [err142];
              } else {
                vErrors.push(err142);
              }
              errors++;
            }
            if (data78 < 100 || isNaN(data78)) {
              const err143 = {
                instancePath: instancePath + '/http/heartbeat_ms',
                schemaPath: '#/properties/http/properties/heartbeat_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 100 },
                message: 'must be >= 100',
              };
              if (vErrors === null) {
                vErrors = [err143];
              } else {
                vErrors.push(err143);
              }
              errors++;
            }
          }
        }
        if (data70.request_timeout_ms !== undefined) {
          let data79 = data70.request_timeout_ms;
          if (!(typeof data79 == 'number' && !(data79 % 1) && !isNaN(data79))) {
            const err144 = {
              instancePath: instancePath + '/http/request_timeout_ms',
              schemaPath: '#/properties/http/properties/request_timeout_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err144];
            } else {
              vErrors.push(err144);
            }
            errors++;
          }
          if (typeof data79 == 'number') {
            if (data79 < 1 || isNaN(data79)) {
              const err145 = {
                instancePath: instancePath + '/http/request_timeout_ms',
                schemaPath: '#/properties/http/properties/request_timeout_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err145];
              } else {
                vErrors.push(err145);
              }
              errors++;
            }
          }
        }
        if (data70.rate_limit !== undefined) {
          let data80 = data70.rate_limit;
          if (!(data80 && typeof data80 == 'object' && !Array.isArray(data80)) && data80 !== null) {
            const err146 = {
              instancePath: instancePath + '/http/rate_limit',
              schemaPath: '#/properties/http/properties/rate_limit/type',
              keyword: 'type',
              params: { type: schema11.properties.http.properties.rate_limit.type },
              message: 'must be object,null',
            };
            if (vErrors === null) {
              vErrors = [err146];
            } else {
              vErrors.push(err146);
            }
            errors++;
          }
          if (data80 && typeof data80 == 'object' && !Array.isArray(data80)) {
            for (const key18 in data80) {
              if (!(key18 === 'per_user_per_minute' || key18 === 'auth_failures_per_minute')) {
                const err147 = {
                  instancePath: instancePath + '/http/rate_limit',
                  schemaPath: '#/properties/http/properties/rate_limit/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key18 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err147];
                } else {
                  vErrors.push(err147);
                }
                errors++;
              }
            }
            if (data80.per_user_per_minute !== undefined) {
              let data81 = data80.per_user_per_minute;
              if (!(typeof data81 == 'number' && !(data81 % 1) && !isNaN(data81)) && data81 !== null) {
                const err148 = {
                  instancePath: instancePath + '/http/rate_limit/per_user_per_minute',
                  schemaPath: '#/properties/http/properties/rate_limit/properties/per_user_per_minute/type',
                  keyword: 'type',
                  params: { type: schema11.properties.http.properties.rate_limit.properties.per_user_per_minute.type },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err148];
                } else {
                  vErrors.push(err148);
                }
                errors++;
              }
              if (typeof data81 == 'number') {
                if (data81 < 1 || isNaN(data81)) {
                  const err149 = {
                    instancePath: instancePath + '/http/rate_limit/per_user_per_minute',
                    schemaPath: '#/properties/http/properties/rate_limit/properties/per_user_per_minute/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err149];
                  } else {
                    vErrors.push(err149);
                  }
                  errors++;
                }
              }
            }
            if (data80.auth_failures_per_minute !== undefined) {
              let data82 = data80.auth_failures_per_minute;
              if (!(typeof data82 == 'number' && !(data82 % 1) && !isNaN(data82)) && data82 !== null) {
                const err150 = {
                  instancePath: instancePath + '/http/rate_limit/auth_failures_per_minute',
                  schemaPath: '#/properties/http/properties/rate_limit/properties/auth_failures_per_minute/type',
                  keyword: 'type',
                  params: {
                    type: schema11.properties.http.properties.rate_limit.properties.auth_failures_per_minute.type,
                  },
                  message: 'must be integer,null',
                };
                if (vErrors === null) {
                  vErrors = [err150];
                } else {
                  vErrors.push(err150);
                }
                errors++;
              }
              if (typeof data82 == 'number') {
                if (data82 < 1 || isNaN(data82)) {
                  const err151 = {
                    instancePath: instancePath + '/http/rate_limit/auth_failures_per_minute',
                    schemaPath: '#/properties/http/properties/rate_limit/properties/auth_failures_per_minute/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err151];
                  } else {
                    vErrors.push(err151);
                  }
                  errors++;
                }
              }
            }
          }
        }
        if (data70.max_queued !== undefined) {
          let data83 = data70.max_queued;
          if (!(typeof data83 == 'number' && !(data83 % 1) && !isNaN(data83)) && data83 !== null) {
            const err152 = {
              instancePath: instancePath + '/http/max_queued',
              schemaPath: '#/properties/http/properties/max_queued/type',
              keyword: 'type',
              params: { type: schema11.properties.http.properties.max_queued.type },
              message: 'must be integer,null',
            };
            if (vErrors === null) {
              vErrors = [err152];
            } else {
              vErrors.push(err152);
            }
            errors++;
          }
          if (typeof data83 == 'number') {
            if (data83 < 1 || isNaN(data83)) {
              const err153 = {
                instancePath: instancePath + '/http/max_queued',
                schemaPath: '#/properties/http/properties/max_queued/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err153];
              } else {
                vErrors.push(err153);
              }
              errors++;
            }
          }
        }
      } else {
        const err154 = {
          instancePath: instancePath + '/http',
          schemaPath: '#/properties/http/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err154];
        } else {
          vErrors.push(err154);
        }
        errors++;
      }
    }
    if (data.notify !== undefined) {
      let data84 = data.notify;
      if (data84 && typeof data84 == 'object' && !Array.isArray(data84)) {
        for (const key19 in data84) {
          if (!(key19 === 'webhooks')) {
            const err155 = {
              instancePath: instancePath + '/notify',
              schemaPath: '#/properties/notify/additionalProperties',
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
        if (data84.webhooks !== undefined) {
          let data85 = data84.webhooks;
          if (Array.isArray(data85)) {
            const len3 = data85.length;
            for (let i3 = 0; i3 < len3; i3++) {
              let data86 = data85[i3];
              if (data86 && typeof data86 == 'object' && !Array.isArray(data86)) {
                if (data86.url === undefined) {
                  const err156 = {
                    instancePath: instancePath + '/notify/webhooks/' + i3,
                    schemaPath: '#/properties/notify/properties/webhooks/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'url' },
                    message: "must have required property '" + 'url' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err156];
                  } else {
                    vErrors.push(err156);
                  }
                  errors++;
                }
                if (data86.secret_env === undefined) {
                  const err157 = {
                    instancePath: instancePath + '/notify/webhooks/' + i3,
                    schemaPath: '#/properties/notify/properties/webhooks/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'secret_env' },
                    message: "must have required property '" + 'secret_env' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err157];
                  } else {
                    vErrors.push(err157);
                  }
                  errors++;
                }
                for (const key20 in data86) {
                  if (!(key20 === 'url' || key20 === 'events' || key20 === 'secret_env')) {
                    const err158 = {
                      instancePath: instancePath + '/notify/webhooks/' + i3,
                      schemaPath: '#/properties/notify/properties/webhooks/items/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key20 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err158];
                    } else {
                      vErrors.push(err158);
                    }
                    errors++;
                  }
                }
                if (data86.url !== undefined) {
                  let data87 = data86.url;
                  if (typeof data87 === 'string') {
                    if (!pattern5.test(data87)) {
                      const err159 = {
                        instancePath: instancePath + '/notify/webhooks/' + i3 + '/url',
                        schemaPath: '#/properties/notify/properties/webhooks/items/properties/url/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^https?://[^\\s]+$' },
                        message: 'must match pattern "' + '^https?://[^\\s]+$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err159];
                      } else {
                        vErrors.push(err159);
                      }
                      errors++;
                    }
                  } else {
                    const err160 = {
                      instancePath: instancePath + '/notify/webhooks/' + i3 + '/url',
                      schemaPath: '#/properties/notify/properties/webhooks/items/properties/url/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err160];
                    } else {
                      vErrors.push(err160);
                    }
                    errors++;
                  }
                }
                if (data86.events !== undefined) {
                  let data88 = data86.events;
                  if (Array.isArray(data88)) {
                    if (data88.length < 1) {
                      const err161 = {
                        instancePath: instancePath + '/notify/webhooks/' + i3 + '/events',
                        schemaPath: '#/properties/notify/properties/webhooks/items/properties/events/minItems',
                        keyword: 'minItems',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 items',
                      };
                      if (vErrors === null) {
                        vErrors = [err161];
                      } else {
                        vErrors.push(err161);
                      }
                      errors++;
                    }
                    const len4 = data88.length;
                    for (let i4 = 0; i4 < len4; i4++) {
                      let data89 = data88[i4];
                      if (!(
                        data89 === 'session_finished' ||
                        data89 === 'session_paused' ||
                        data89 === 'approval_requested' ||
                        data89 === 'session_cancelled' ||
                        data89 === 'intervention_required'
                      )) {
                        const err162 = {
                          instancePath: instancePath + '/notify/webhooks/' + i3 + '/events/' + i4,
                          schemaPath: '#/properties/notify/properties/webhooks/items/properties/events/items/enum',
                          keyword: 'enum',
                          params: {
                            allowedValues:
                              schema11.properties.notify.properties.webhooks.items.properties.events.items.enum,
                          },
                          message: 'must be equal to one of the allowed values',
                        };
                        if (vErrors === null) {
                          vErrors = [err162];
                        } else {
                          vErrors.push(err162);
                        }
                        errors++;
                      }
                    }
                    let i5 = data88.length;
                    let j0;
                    if (i5 > 1) {
                      outer0: for (; i5--;) {
                        for (j0 = i5; j0--;) {
                          if (func0(data88[i5], data88[j0])) {
                            const err163 = {
                              instancePath: instancePath + '/notify/webhooks/' + i3 + '/events',
                              schemaPath: '#/properties/notify/properties/webhooks/items/properties/events/uniqueItems',
                              keyword: 'uniqueItems',
                              params: { i: i5, j: j0 },
                              message:
                                'must NOT have duplicate items (items ## ' + j0 + ' and ' + i5 + ' are identical)',
                            };
                            if (vErrors === null) {
                              vErrors = [err163];
                            } else {
                              vErrors.push(err163);
                            }
                            errors++;
                            break outer0;
                          }
                        }
                      }
                    }
                  } else {
                    const err164 = {
                      instancePath: instancePath + '/notify/webhooks/' + i3 + '/events',
                      schemaPath: '#/properties/notify/properties/webhooks/items/properties/events/type',
                      keyword: 'type',
                      params: { type: 'array' },
                      message: 'must be array',
                    };
                    if (vErrors === null) {
                      vErrors = [err164];
                    } else {
                      vErrors.push(err164);
                    }
                    errors++;
                  }
                }
                if (data86.secret_env !== undefined) {
                  let data90 = data86.secret_env;
                  if (typeof data90 === 'string') {
                    if (!pattern6.test(data90)) {
                      const err165 = {
                        instancePath: instancePath + '/notify/webhooks/' + i3 + '/secret_env',
                        schemaPath: '#/properties/notify/properties/webhooks/items/properties/secret_env/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
                        message: 'must match pattern "' + '^[A-Za-z_][A-Za-z0-9_]*$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err165];
                      } else {
                        vErrors.push(err165);
                      }
                      errors++;
                    }
                  } else {
                    const err166 = {
                      instancePath: instancePath + '/notify/webhooks/' + i3 + '/secret_env',
                      schemaPath: '#/properties/notify/properties/webhooks/items/properties/secret_env/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err166];
                    } else {
                      vErrors.push(err166);
                    }
                    errors++;
                  }
                }
              } else {
                const err167 = {
                  instancePath: instancePath + '/notify/webhooks/' + i3,
                  schemaPath: '#/properties/notify/properties/webhooks/items/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err167];
                } else {
                  vErrors.push(err167);
                }
                errors++;
              }
            }
          } else {
            const err168 = {
              instancePath: instancePath + '/notify/webhooks',
              schemaPath: '#/properties/notify/properties/webhooks/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err168];
            } else {
              vErrors.push(err168);
            }
            errors++;
          }
        }
      } else {
        const err169 = {
          instancePath: instancePath + '/notify',
          schemaPath: '#/properties/notify/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err169];
        } else {
          vErrors.push(err169);
        }
        errors++;
      }
    }
    if (data.tools !== undefined) {
      let data91 = data.tools;
      if (data91 && typeof data91 == 'object' && !Array.isArray(data91)) {
        for (const key21 in data91) {
          if (!(
            key21 === 'workspace' ||
            key21 === 'max_result_bytes' ||
            key21 === 'max_file_bytes' ||
            key21 === 'http_get' ||
            key21 === 'commands'
          )) {
            const err170 = {
              instancePath: instancePath + '/tools',
              schemaPath: '#/properties/tools/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key21 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err170];
            } else {
              vErrors.push(err170);
            }
            errors++;
          }
        }
        if (data91.workspace !== undefined) {
          let data92 = data91.workspace;
          if (typeof data92 === 'string') {
            if (func3(data92) < 1) {
              const err171 = {
                instancePath: instancePath + '/tools/workspace',
                schemaPath: '#/properties/tools/properties/workspace/minLength',
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
              instancePath: instancePath + '/tools/workspace',
              schemaPath: '#/properties/tools/properties/workspace/type',
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
        if (data91.max_result_bytes !== undefined) {
          let data93 = data91.max_result_bytes;
          if (!(typeof data93 == 'number' && !(data93 % 1) && !isNaN(data93))) {
            const err173 = {
              instancePath: instancePath + '/tools/max_result_bytes',
              schemaPath: '#/properties/tools/properties/max_result_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err173];
            } else {
              vErrors.push(err173);
            }
            errors++;
          }
          if (typeof data93 == 'number') {
            if (data93 < 1 || isNaN(data93)) {
              const err174 = {
                instancePath: instancePath + '/tools/max_result_bytes',
                schemaPath: '#/properties/tools/properties/max_result_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err174];
              } else {
                vErrors.push(err174);
              }
              errors++;
            }
          }
        }
        if (data91.max_file_bytes !== undefined) {
          let data94 = data91.max_file_bytes;
          if (!(typeof data94 == 'number' && !(data94 % 1) && !isNaN(data94))) {
            const err175 = {
              instancePath: instancePath + '/tools/max_file_bytes',
              schemaPath: '#/properties/tools/properties/max_file_bytes/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err175];
            } else {
              vErrors.push(err175);
            }
            errors++;
          }
          if (typeof data94 == 'number') {
            if (data94 < 1 || isNaN(data94)) {
              const err176 = {
                instancePath: instancePath + '/tools/max_file_bytes',
                schemaPath: '#/properties/tools/properties/max_file_bytes/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err176];
              } else {
                vErrors.push(err176);
              }
              errors++;
            }
          }
        }
        if (data91.http_get !== undefined) {
          let data95 = data91.http_get;
          if (data95 && typeof data95 == 'object' && !Array.isArray(data95)) {
            for (const key22 in data95) {
              if (!(
                key22 === 'allow_hosts' ||
                key22 === 'max_bytes' ||
                key22 === 'timeout_ms' ||
                key22 === 'max_redirects'
              )) {
                const err177 = {
                  instancePath: instancePath + '/tools/http_get',
                  schemaPath: '#/properties/tools/properties/http_get/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key22 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err177];
                } else {
                  vErrors.push(err177);
                }
                errors++;
              }
            }
            if (data95.allow_hosts !== undefined) {
              let data96 = data95.allow_hosts;
              if (Array.isArray(data96)) {
                const len5 = data96.length;
                for (let i6 = 0; i6 < len5; i6++) {
                  let data97 = data96[i6];
                  if (typeof data97 === 'string') {
                    if (func3(data97) < 1) {
                      const err178 = {
                        instancePath: instancePath + '/tools/http_get/allow_hosts/' + i6,
                        schemaPath: '#/properties/tools/properties/http_get/properties/allow_hosts/items/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err178];
                      } else {
                        vErrors.push(err178);
                      }
                      errors++;
                    }
                  } else {
                    const err179 = {
                      instancePath: instancePath + '/tools/http_get/allow_hosts/' + i6,
                      schemaPath: '#/properties/tools/properties/http_get/properties/allow_hosts/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err179];
                    } else {
                      vErrors.push(err179);
                    }
                    errors++;
                  }
                }
              } else {
                const err180 = {
                  instancePath: instancePath + '/tools/http_get/allow_hosts',
                  schemaPath: '#/properties/tools/properties/http_get/properties/allow_hosts/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err180];
                } else {
                  vErrors.push(err180);
                }
                errors++;
              }
            }
            if (data95.max_bytes !== undefined) {
              let data98 = data95.max_bytes;
              if (!(typeof data98 == 'number' && !(data98 % 1) && !isNaN(data98))) {
                const err181 = {
                  instancePath: instancePath + '/tools/http_get/max_bytes',
                  schemaPath: '#/properties/tools/properties/http_get/properties/max_bytes/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err181];
                } else {
                  vErrors.push(err181);
                }
                errors++;
              }
              if (typeof data98 == 'number') {
                if (data98 < 1 || isNaN(data98)) {
                  const err182 = {
                    instancePath: instancePath + '/tools/http_get/max_bytes',
                    schemaPath: '#/properties/tools/properties/http_get/properties/max_bytes/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err182];
                  } else {
                    vErrors.push(err182);
                  }
                  errors++;
                }
              }
            }
            if (data95.timeout_ms !== undefined) {
              let data99 = data95.timeout_ms;
              if (!(typeof data99 == 'number' && !(data99 % 1) && !isNaN(data99))) {
                const err183 = {
                  instancePath: instancePath + '/tools/http_get/timeout_ms',
                  schemaPath: '#/properties/tools/properties/http_get/properties/timeout_ms/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err183];
                } else {
                  vErrors.push(err183);
                }
                errors++;
              }
              if (typeof data99 == 'number') {
                if (data99 < 1 || isNaN(data99)) {
                  const err184 = {
                    instancePath: instancePath + '/tools/http_get/timeout_ms',
                    schemaPath: '#/properties/tools/properties/http_get/properties/timeout_ms/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err184];
                  } else {
                    vErrors.push(err184);
                  }
                  errors++;
                }
              }
            }
            if (data95.max_redirects !== undefined) {
              let data100 = data95.max_redirects;
              if (!(typeof data100 == 'number' && !(data100 % 1) && !isNaN(data100))) {
                const err185 = {
                  instancePath: instancePath + '/tools/http_get/max_redirects',
                  schemaPath: '#/properties/tools/properties/http_get/properties/max_redirects/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err185];
                } else {
                  vErrors.push(err185);
                }
                errors++;
              }
              if (typeof data100 == 'number') {
                if (data100 < 0 || isNaN(data100)) {
                  const err186 = {
                    instancePath: instancePath + '/tools/http_get/max_redirects',
                    schemaPath: '#/properties/tools/properties/http_get/properties/max_redirects/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
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
          } else {
            const err187 = {
              instancePath: instancePath + '/tools/http_get',
              schemaPath: '#/properties/tools/properties/http_get/type',
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
        if (data91.commands !== undefined) {
          let data101 = data91.commands;
          if (data101 && typeof data101 == 'object' && !Array.isArray(data101)) {
            for (const key23 in data101) {
              if (!(
                key23 === 'allow' ||
                key23 === 'auto_approve' ||
                key23 === 'timeout_ms' ||
                key23 === 'max_output_bytes'
              )) {
                const err188 = {
                  instancePath: instancePath + '/tools/commands',
                  schemaPath: '#/properties/tools/properties/commands/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key23 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err188];
                } else {
                  vErrors.push(err188);
                }
                errors++;
              }
            }
            if (data101.allow !== undefined) {
              let data102 = data101.allow;
              if (Array.isArray(data102)) {
                const len6 = data102.length;
                for (let i7 = 0; i7 < len6; i7++) {
                  let data103 = data102[i7];
                  if (typeof data103 === 'string') {
                    if (func3(data103) < 1) {
                      const err189 = {
                        instancePath: instancePath + '/tools/commands/allow/' + i7,
                        schemaPath: '#/properties/tools/properties/commands/properties/allow/items/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err189];
                      } else {
                        vErrors.push(err189);
                      }
                      errors++;
                    }
                  } else {
                    const err190 = {
                      instancePath: instancePath + '/tools/commands/allow/' + i7,
                      schemaPath: '#/properties/tools/properties/commands/properties/allow/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err190];
                    } else {
                      vErrors.push(err190);
                    }
                    errors++;
                  }
                }
                let i8 = data102.length;
                let j1;
                if (i8 > 1) {
                  const indices0 = {};
                  for (; i8--;) {
                    let item0 = data102[i8];
                    if (typeof item0 !== 'string') {
                      continue;
                    }
                    if (typeof indices0[item0] == 'number') {
                      j1 = indices0[item0];
                      const err191 = {
                        instancePath: instancePath + '/tools/commands/allow',
                        schemaPath: '#/properties/tools/properties/commands/properties/allow/uniqueItems',
                        keyword: 'uniqueItems',
                        params: { i: i8, j: j1 },
                        message: 'must NOT have duplicate items (items ## ' + j1 + ' and ' + i8 + ' are identical)',
                      };
                      if (vErrors === null) {
                        vErrors = [err191];
                      } else {
                        vErrors.push(err191);
                      }
                      errors++;
                      break;
                    }
                    indices0[item0] = i8;
                  }
                }
              } else {
                const err192 = {
                  instancePath: instancePath + '/tools/commands/allow',
                  schemaPath: '#/properties/tools/properties/commands/properties/allow/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err192];
                } else {
                  vErrors.push(err192);
                }
                errors++;
              }
            }
            if (data101.auto_approve !== undefined) {
              let data104 = data101.auto_approve;
              if (Array.isArray(data104)) {
                const len7 = data104.length;
                for (let i9 = 0; i9 < len7; i9++) {
                  let data105 = data104[i9];
                  if (typeof data105 === 'string') {
                    if (func3(data105) < 1) {
                      const err193 = {
                        instancePath: instancePath + '/tools/commands/auto_approve/' + i9,
                        schemaPath: '#/properties/tools/properties/commands/properties/auto_approve/items/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err193];
                      } else {
                        vErrors.push(err193);
                      }
                      errors++;
                    }
                  } else {
                    const err194 = {
                      instancePath: instancePath + '/tools/commands/auto_approve/' + i9,
                      schemaPath: '#/properties/tools/properties/commands/properties/auto_approve/items/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err194];
                    } else {
                      vErrors.push(err194);
                    }
                    errors++;
                  }
                }
                let i10 = data104.length;
                let j2;
                if (i10 > 1) {
                  const indices1 = {};
                  for (; i10--;) {
                    let item1 = data104[i10];
                    if (typeof item1 !== 'string') {
                      continue;
                    }
                    if (typeof indices1[item1] == 'number') {
                      j2 = indices1[item1];
                      const err195 = {
                        instancePath: instancePath + '/tools/commands/auto_approve',
                        schemaPath: '#/properties/tools/properties/commands/properties/auto_approve/uniqueItems',
                        keyword: 'uniqueItems',
                        params: { i: i10, j: j2 },
                        message: 'must NOT have duplicate items (items ## ' + j2 + ' and ' + i10 + ' are identical)',
                      };
                      if (vErrors === null) {
                        vErrors = [err195];
                      } else {
                        vErrors.push(err195);
                      }
                      errors++;
                      break;
                    }
                    indices1[item1] = i10;
                  }
                }
              } else {
                const err196 = {
                  instancePath: instancePath + '/tools/commands/auto_approve',
                  schemaPath: '#/properties/tools/properties/commands/properties/auto_approve/type',
                  keyword: 'type',
                  params: { type: 'array' },
                  message: 'must be array',
                };
                if (vErrors === null) {
                  vErrors = [err196];
                } else {
                  vErrors.push(err196);
                }
                errors++;
              }
            }
            if (data101.timeout_ms !== undefined) {
              let data106 = data101.timeout_ms;
              if (!(typeof data106 == 'number' && !(data106 % 1) && !isNaN(data106))) {
                const err197 = {
                  instancePath: instancePath + '/tools/commands/timeout_ms',
                  schemaPath: '#/properties/tools/properties/commands/properties/timeout_ms/type',
                  keyword: 'type',
                  params: { type: 'integer' },
                  message: 'must be integer',
                };
                if (vErrors === null) {
                  vErrors = [err197];
                } else {
                  vErrors.push(err197);
                }
                errors++;
              }
              if (typeof data106 == 'number') {
                if (data106 < 1 || isNaN(data106)) {
                  const err198 = {
                    instancePath: instancePath + '/tools/commands/timeout_ms',
                    schemaPath: '#/properties/tools/properties/commands/properties/timeout_ms/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 1 },
                    message: 'must be >= 1',
                  };
                  if (vErrors === null) {
                    vErrors = [err198];
                  } else {
                    vErrors.push(err198);
                  }
                  errors++;
                }
              }
            }
            if (data101.max_output_bytes !== undefined) {
              let data107 = data101.max_output_bytes;
              if (!(typeof data107 == 'number' && !(data107 % 1) && !isNaN(data107))) {
                const err199 = {
                  instancePath: instancePath + '/tools/commands/max_output_bytes',
                  schemaPath: '#/properties/tools/properties/commands/properties/max_output_bytes/type',
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
              if (typeof data107 == 'number') {
                if (data107 < 1 || isNaN(data107)) {
                  const err200 = {
                    instancePath: instancePath + '/tools/commands/max_output_bytes',
                    schemaPath: '#/properties/tools/properties/commands/properties/max_output_bytes/minimum',
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
          } else {
            const err201 = {
              instancePath: instancePath + '/tools/commands',
              schemaPath: '#/properties/tools/properties/commands/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err201];
            } else {
              vErrors.push(err201);
            }
            errors++;
          }
        }
      } else {
        const err202 = {
          instancePath: instancePath + '/tools',
          schemaPath: '#/properties/tools/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err202];
        } else {
          vErrors.push(err202);
        }
        errors++;
      }
    }
    if (data.store !== undefined) {
      let data108 = data.store;
      if (data108 && typeof data108 == 'object' && !Array.isArray(data108)) {
        for (const key24 in data108) {
          if (!(key24 === 'kind' || key24 === 'url' || key24 === 'schema')) {
            const err203 = {
              instancePath: instancePath + '/store',
              schemaPath: '#/properties/store/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key24 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err203];
            } else {
              vErrors.push(err203);
            }
            errors++;
          }
        }
        if (data108.kind !== undefined) {
          let data109 = data108.kind;
          if (!(data109 === 'files' || data109 === 'postgres')) {
            const err204 = {
              instancePath: instancePath + '/store/kind',
              schemaPath: '#/properties/store/properties/kind/enum',
              keyword: 'enum',
              params: { allowedValues: schema11.properties.store.properties.kind.enum },
              message: 'must be equal to one of the allowed values',
            };
            if (vErrors === null) {
              vErrors = [err204];
            } else {
              vErrors.push(err204);
            }
            errors++;
          }
        }
        if (data108.url !== undefined) {
          let data110 = data108.url;
          if (typeof data110 !== 'string' && data110 !== null) {
            const err205 = {
              instancePath: instancePath + '/store/url',
              schemaPath: '#/properties/store/properties/url/type',
              keyword: 'type',
              params: { type: schema11.properties.store.properties.url.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err205];
            } else {
              vErrors.push(err205);
            }
            errors++;
          }
          if (typeof data110 === 'string') {
            if (func3(data110) < 1) {
              const err206 = {
                instancePath: instancePath + '/store/url',
                schemaPath: '#/properties/store/properties/url/minLength',
                keyword: 'minLength',
                params: { limit: 1 },
                message: 'must NOT have fewer than 1 characters',
              };
              if (vErrors === null) {
                vErrors = [err206];
              } else {
                vErrors.push(err206);
              }
              errors++;
            }
          }
        }
        if (data108.schema !== undefined) {
          let data111 = data108.schema;
          if (typeof data111 === 'string') {
            if (!pattern7.test(data111)) {
              const err207 = {
                instancePath: instancePath + '/store/schema',
                schemaPath: '#/properties/store/properties/schema/pattern',
                keyword: 'pattern',
                params: { pattern: '^[a-z_][a-z0-9_]{0,62}$' },
                message: 'must match pattern "' + '^[a-z_][a-z0-9_]{0,62}$' + '"',
              };
              if (vErrors === null) {
                vErrors = [err207];
              } else {
                vErrors.push(err207);
              }
              errors++;
            }
          } else {
            const err208 = {
              instancePath: instancePath + '/store/schema',
              schemaPath: '#/properties/store/properties/schema/type',
              keyword: 'type',
              params: { type: 'string' },
              message: 'must be string',
            };
            if (vErrors === null) {
              vErrors = [err208];
            } else {
              vErrors.push(err208);
            }
            errors++;
          }
        }
      } else {
        const err209 = {
          instancePath: instancePath + '/store',
          schemaPath: '#/properties/store/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err209];
        } else {
          vErrors.push(err209);
        }
        errors++;
      }
    }
    if (data.cluster !== undefined) {
      let data112 = data.cluster;
      if (data112 && typeof data112 == 'object' && !Array.isArray(data112)) {
        for (const key25 in data112) {
          if (!(key25 === 'lease_ms' || key25 === 'pool_size' || key25 === 'connect_timeout_ms')) {
            const err210 = {
              instancePath: instancePath + '/cluster',
              schemaPath: '#/properties/cluster/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key25 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err210];
            } else {
              vErrors.push(err210);
            }
            errors++;
          }
        }
        if (data112.lease_ms !== undefined) {
          let data113 = data112.lease_ms;
          if (!(typeof data113 == 'number' && !(data113 % 1) && !isNaN(data113))) {
            const err211 = {
              instancePath: instancePath + '/cluster/lease_ms',
              schemaPath: '#/properties/cluster/properties/lease_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err211];
            } else {
              vErrors.push(err211);
            }
            errors++;
          }
          if (typeof data113 == 'number') {
            if (data113 < 1000 || isNaN(data113)) {
              const err212 = {
                instancePath: instancePath + '/cluster/lease_ms',
                schemaPath: '#/properties/cluster/properties/lease_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1000 },
                message: 'must be >= 1000',
              };
              if (vErrors === null) {
                vErrors = [err212];
              } else {
                vErrors.push(err212);
              }
              errors++;
            }
          }
        }
        if (data112.pool_size !== undefined) {
          let data114 = data112.pool_size;
          if (!(typeof data114 == 'number' && !(data114 % 1) && !isNaN(data114))) {
            const err213 = {
              instancePath: instancePath + '/cluster/pool_size',
              schemaPath: '#/properties/cluster/properties/pool_size/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err213];
            } else {
              vErrors.push(err213);
            }
            errors++;
          }
          if (typeof data114 == 'number') {
            if (data114 > 100 || isNaN(data114)) {
              const err214 = {
                instancePath: instancePath + '/cluster/pool_size',
                schemaPath: '#/properties/cluster/properties/pool_size/maximum',
                keyword: 'maximum',
                params: { comparison: '<=', limit: 100 },
                message: 'must be <= 100',
              };
              if (vErrors === null) {
                vErrors = [err214];
              } else {
                vErrors.push(err214);
              }
              errors++;
            }
            if (data114 < 2 || isNaN(data114)) {
              const err215 = {
                instancePath: instancePath + '/cluster/pool_size',
                schemaPath: '#/properties/cluster/properties/pool_size/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 2 },
                message: 'must be >= 2',
              };
              if (vErrors === null) {
                vErrors = [err215];
              } else {
                vErrors.push(err215);
              }
              errors++;
            }
          }
        }
        if (data112.connect_timeout_ms !== undefined) {
          let data115 = data112.connect_timeout_ms;
          if (!(typeof data115 == 'number' && !(data115 % 1) && !isNaN(data115))) {
            const err216 = {
              instancePath: instancePath + '/cluster/connect_timeout_ms',
              schemaPath: '#/properties/cluster/properties/connect_timeout_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err216];
            } else {
              vErrors.push(err216);
            }
            errors++;
          }
          if (typeof data115 == 'number') {
            if (data115 > 25000 || isNaN(data115)) {
              const err217 = {
                instancePath: instancePath + '/cluster/connect_timeout_ms',
                schemaPath: '#/properties/cluster/properties/connect_timeout_ms/maximum',
                keyword: 'maximum',
                params: { comparison: '<=', limit: 25000 },
                message: 'must be <= 25000',
              };
              if (vErrors === null) {
                vErrors = [err217];
              } else {
                vErrors.push(err217);
              }
              errors++;
            }
            if (data115 < 100 || isNaN(data115)) {
              const err218 = {
                instancePath: instancePath + '/cluster/connect_timeout_ms',
                schemaPath: '#/properties/cluster/properties/connect_timeout_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 100 },
                message: 'must be >= 100',
              };
              if (vErrors === null) {
                vErrors = [err218];
              } else {
                vErrors.push(err218);
              }
              errors++;
            }
          }
        }
      } else {
        const err219 = {
          instancePath: instancePath + '/cluster',
          schemaPath: '#/properties/cluster/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err219];
        } else {
          vErrors.push(err219);
        }
        errors++;
      }
    }
    if (data.mcp !== undefined) {
      let data116 = data.mcp;
      if (data116 && typeof data116 == 'object' && !Array.isArray(data116)) {
        for (const key26 in data116) {
          if (!(key26 === 'servers' || key26 === 'timeout_ms')) {
            const err220 = {
              instancePath: instancePath + '/mcp',
              schemaPath: '#/properties/mcp/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key26 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err220];
            } else {
              vErrors.push(err220);
            }
            errors++;
          }
        }
        if (data116.servers !== undefined) {
          let data117 = data116.servers;
          if (data117 && typeof data117 == 'object' && !Array.isArray(data117)) {
            for (const key27 in data117) {
              const _errs254 = errors;
              if (typeof key27 === 'string') {
                if (!pattern8.test(key27)) {
                  const err221 = {
                    instancePath: instancePath + '/mcp/servers',
                    schemaPath: '#/properties/mcp/properties/servers/propertyNames/pattern',
                    keyword: 'pattern',
                    params: { pattern: '^[A-Za-z0-9_.-]+$' },
                    message: 'must match pattern "' + '^[A-Za-z0-9_.-]+$' + '"',
                    propertyName: key27,
                  };
                  if (vErrors === null) {
                    vErrors = [err221];
                  } else {
                    vErrors.push(err221);
                  }
                  errors++;
                }
              }
              var valid46 = _errs254 === errors;
              if (!valid46) {
                const err222 = {
                  instancePath: instancePath + '/mcp/servers',
                  schemaPath: '#/properties/mcp/properties/servers/propertyNames',
                  keyword: 'propertyNames',
                  params: { propertyName: key27 },
                  message: 'property name must be valid',
                };
                if (vErrors === null) {
                  vErrors = [err222];
                } else {
                  vErrors.push(err222);
                }
                errors++;
              }
            }
            for (const key28 in data117) {
              let data118 = data117[key28];
              if (data118 && typeof data118 == 'object' && !Array.isArray(data118)) {
                for (const key29 in data118) {
                  if (!(
                    key29 === 'command' ||
                    key29 === 'args' ||
                    key29 === 'env' ||
                    key29 === 'cwd' ||
                    key29 === 'url' ||
                    key29 === 'headers_env' ||
                    key29 === 'timeout_ms'
                  )) {
                    const err223 = {
                      instancePath: instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1'),
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key29 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err223];
                    } else {
                      vErrors.push(err223);
                    }
                    errors++;
                  }
                }
                if (data118.command !== undefined) {
                  let data119 = data118.command;
                  if (typeof data119 === 'string') {
                    if (func3(data119) < 1) {
                      const err224 = {
                        instancePath:
                          instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/command',
                        schemaPath:
                          '#/properties/mcp/properties/servers/additionalProperties/properties/command/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err224];
                      } else {
                        vErrors.push(err224);
                      }
                      errors++;
                    }
                  } else {
                    const err225 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/command',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/command/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err225];
                    } else {
                      vErrors.push(err225);
                    }
                    errors++;
                  }
                }
                if (data118.args !== undefined) {
                  let data120 = data118.args;
                  if (Array.isArray(data120)) {
                    const len8 = data120.length;
                    for (let i11 = 0; i11 < len8; i11++) {
                      if (typeof data120[i11] !== 'string') {
                        const err226 = {
                          instancePath:
                            instancePath +
                            '/mcp/servers/' +
                            key28.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/args/' +
                            i11,
                          schemaPath:
                            '#/properties/mcp/properties/servers/additionalProperties/properties/args/items/type',
                          keyword: 'type',
                          params: { type: 'string' },
                          message: 'must be string',
                        };
                        if (vErrors === null) {
                          vErrors = [err226];
                        } else {
                          vErrors.push(err226);
                        }
                        errors++;
                      }
                    }
                  } else {
                    const err227 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/args',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/args/type',
                      keyword: 'type',
                      params: { type: 'array' },
                      message: 'must be array',
                    };
                    if (vErrors === null) {
                      vErrors = [err227];
                    } else {
                      vErrors.push(err227);
                    }
                    errors++;
                  }
                }
                if (data118.env !== undefined) {
                  let data122 = data118.env;
                  if (data122 && typeof data122 == 'object' && !Array.isArray(data122)) {
                    for (const key30 in data122) {
                      if (typeof data122[key30] !== 'string') {
                        const err228 = {
                          instancePath:
                            instancePath +
                            '/mcp/servers/' +
                            key28.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/env/' +
                            key30.replace(/~/g, '~0').replace(/\//g, '~1'),
                          schemaPath:
                            '#/properties/mcp/properties/servers/additionalProperties/properties/env/additionalProperties/type',
                          keyword: 'type',
                          params: { type: 'string' },
                          message: 'must be string',
                        };
                        if (vErrors === null) {
                          vErrors = [err228];
                        } else {
                          vErrors.push(err228);
                        }
                        errors++;
                      }
                    }
                  } else {
                    const err229 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/env',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/env/type',
                      keyword: 'type',
                      params: { type: 'object' },
                      message: 'must be object',
                    };
                    if (vErrors === null) {
                      vErrors = [err229];
                    } else {
                      vErrors.push(err229);
                    }
                    errors++;
                  }
                }
                if (data118.cwd !== undefined) {
                  let data124 = data118.cwd;
                  if (typeof data124 === 'string') {
                    if (func3(data124) < 1) {
                      const err230 = {
                        instancePath:
                          instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/cwd',
                        schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/cwd/minLength',
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
                      instancePath:
                        instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/cwd',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/cwd/type',
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
                if (data118.url !== undefined) {
                  let data125 = data118.url;
                  if (typeof data125 === 'string') {
                    if (!pattern1.test(data125)) {
                      const err232 = {
                        instancePath:
                          instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/url',
                        schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/url/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^https?://' },
                        message: 'must match pattern "' + '^https?://' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err232];
                      } else {
                        vErrors.push(err232);
                      }
                      errors++;
                    }
                  } else {
                    const err233 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/url',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/url/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err233];
                    } else {
                      vErrors.push(err233);
                    }
                    errors++;
                  }
                }
                if (data118.headers_env !== undefined) {
                  let data126 = data118.headers_env;
                  if (data126 && typeof data126 == 'object' && !Array.isArray(data126)) {
                    for (const key31 in data126) {
                      let data127 = data126[key31];
                      if (typeof data127 === 'string') {
                        if (!pattern6.test(data127)) {
                          const err234 = {
                            instancePath:
                              instancePath +
                              '/mcp/servers/' +
                              key28.replace(/~/g, '~0').replace(/\//g, '~1') +
                              '/headers_env/' +
                              key31.replace(/~/g, '~0').replace(/\//g, '~1'),
                            schemaPath:
                              '#/properties/mcp/properties/servers/additionalProperties/properties/headers_env/additionalProperties/pattern',
                            keyword: 'pattern',
                            params: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
                            message: 'must match pattern "' + '^[A-Za-z_][A-Za-z0-9_]*$' + '"',
                          };
                          if (vErrors === null) {
                            vErrors = [err234];
                          } else {
                            vErrors.push(err234);
                          }
                          errors++;
                        }
                      } else {
                        const err235 = {
                          instancePath:
                            instancePath +
                            '/mcp/servers/' +
                            key28.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/headers_env/' +
                            key31.replace(/~/g, '~0').replace(/\//g, '~1'),
                          schemaPath:
                            '#/properties/mcp/properties/servers/additionalProperties/properties/headers_env/additionalProperties/type',
                          keyword: 'type',
                          params: { type: 'string' },
                          message: 'must be string',
                        };
                        if (vErrors === null) {
                          vErrors = [err235];
                        } else {
                          vErrors.push(err235);
                        }
                        errors++;
                      }
                    }
                  } else {
                    const err236 = {
                      instancePath:
                        instancePath +
                        '/mcp/servers/' +
                        key28.replace(/~/g, '~0').replace(/\//g, '~1') +
                        '/headers_env',
                      schemaPath:
                        '#/properties/mcp/properties/servers/additionalProperties/properties/headers_env/type',
                      keyword: 'type',
                      params: { type: 'object' },
                      message: 'must be object',
                    };
                    if (vErrors === null) {
                      vErrors = [err236];
                    } else {
                      vErrors.push(err236);
                    }
                    errors++;
                  }
                }
                if (data118.timeout_ms !== undefined) {
                  let data128 = data118.timeout_ms;
                  if (!(typeof data128 == 'number' && !(data128 % 1) && !isNaN(data128))) {
                    const err237 = {
                      instancePath:
                        instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1') + '/timeout_ms',
                      schemaPath: '#/properties/mcp/properties/servers/additionalProperties/properties/timeout_ms/type',
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
                  if (typeof data128 == 'number') {
                    if (data128 < 1 || isNaN(data128)) {
                      const err238 = {
                        instancePath:
                          instancePath +
                          '/mcp/servers/' +
                          key28.replace(/~/g, '~0').replace(/\//g, '~1') +
                          '/timeout_ms',
                        schemaPath:
                          '#/properties/mcp/properties/servers/additionalProperties/properties/timeout_ms/minimum',
                        keyword: 'minimum',
                        params: { comparison: '>=', limit: 1 },
                        message: 'must be >= 1',
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
                  instancePath: instancePath + '/mcp/servers/' + key28.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/mcp/properties/servers/additionalProperties/type',
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
          } else {
            const err240 = {
              instancePath: instancePath + '/mcp/servers',
              schemaPath: '#/properties/mcp/properties/servers/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err240];
            } else {
              vErrors.push(err240);
            }
            errors++;
          }
        }
        if (data116.timeout_ms !== undefined) {
          let data129 = data116.timeout_ms;
          if (!(typeof data129 == 'number' && !(data129 % 1) && !isNaN(data129))) {
            const err241 = {
              instancePath: instancePath + '/mcp/timeout_ms',
              schemaPath: '#/properties/mcp/properties/timeout_ms/type',
              keyword: 'type',
              params: { type: 'integer' },
              message: 'must be integer',
            };
            if (vErrors === null) {
              vErrors = [err241];
            } else {
              vErrors.push(err241);
            }
            errors++;
          }
          if (typeof data129 == 'number') {
            if (data129 < 1 || isNaN(data129)) {
              const err242 = {
                instancePath: instancePath + '/mcp/timeout_ms',
                schemaPath: '#/properties/mcp/properties/timeout_ms/minimum',
                keyword: 'minimum',
                params: { comparison: '>=', limit: 1 },
                message: 'must be >= 1',
              };
              if (vErrors === null) {
                vErrors = [err242];
              } else {
                vErrors.push(err242);
              }
              errors++;
            }
          }
        }
      } else {
        const err243 = {
          instancePath: instancePath + '/mcp',
          schemaPath: '#/properties/mcp/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err243];
        } else {
          vErrors.push(err243);
        }
        errors++;
      }
    }
    if (data.prices !== undefined) {
      let data130 = data.prices;
      if (data130 && typeof data130 == 'object' && !Array.isArray(data130)) {
        for (const key32 in data130) {
          let data131 = data130[key32];
          if (data131 && typeof data131 == 'object' && !Array.isArray(data131)) {
            if (data131.input === undefined) {
              const err244 = {
                instancePath: instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/prices/additionalProperties/required',
                keyword: 'required',
                params: { missingProperty: 'input' },
                message: "must have required property '" + 'input' + "'",
              };
              if (vErrors === null) {
                vErrors = [err244];
              } else {
                vErrors.push(err244);
              }
              errors++;
            }
            if (data131.output === undefined) {
              const err245 = {
                instancePath: instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/prices/additionalProperties/required',
                keyword: 'required',
                params: { missingProperty: 'output' },
                message: "must have required property '" + 'output' + "'",
              };
              if (vErrors === null) {
                vErrors = [err245];
              } else {
                vErrors.push(err245);
              }
              errors++;
            }
            for (const key33 in data131) {
              if (!(key33 === 'input' || key33 === 'output' || key33 === 'cached_input')) {
                const err246 = {
                  instancePath: instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/prices/additionalProperties/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key33 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err246];
                } else {
                  vErrors.push(err246);
                }
                errors++;
              }
            }
            if (data131.input !== undefined) {
              let data132 = data131.input;
              if (typeof data132 == 'number') {
                if (data132 < 0 || isNaN(data132)) {
                  const err247 = {
                    instancePath: instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1') + '/input',
                    schemaPath: '#/properties/prices/additionalProperties/properties/input/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err247];
                  } else {
                    vErrors.push(err247);
                  }
                  errors++;
                }
              } else {
                const err248 = {
                  instancePath: instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1') + '/input',
                  schemaPath: '#/properties/prices/additionalProperties/properties/input/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err248];
                } else {
                  vErrors.push(err248);
                }
                errors++;
              }
            }
            if (data131.output !== undefined) {
              let data133 = data131.output;
              if (typeof data133 == 'number') {
                if (data133 < 0 || isNaN(data133)) {
                  const err249 = {
                    instancePath:
                      instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1') + '/output',
                    schemaPath: '#/properties/prices/additionalProperties/properties/output/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err249];
                  } else {
                    vErrors.push(err249);
                  }
                  errors++;
                }
              } else {
                const err250 = {
                  instancePath: instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1') + '/output',
                  schemaPath: '#/properties/prices/additionalProperties/properties/output/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err250];
                } else {
                  vErrors.push(err250);
                }
                errors++;
              }
            }
            if (data131.cached_input !== undefined) {
              let data134 = data131.cached_input;
              if (typeof data134 == 'number') {
                if (data134 < 0 || isNaN(data134)) {
                  const err251 = {
                    instancePath:
                      instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1') + '/cached_input',
                    schemaPath: '#/properties/prices/additionalProperties/properties/cached_input/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err251];
                  } else {
                    vErrors.push(err251);
                  }
                  errors++;
                }
              } else {
                const err252 = {
                  instancePath:
                    instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1') + '/cached_input',
                  schemaPath: '#/properties/prices/additionalProperties/properties/cached_input/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err252];
                } else {
                  vErrors.push(err252);
                }
                errors++;
              }
            }
          } else {
            const err253 = {
              instancePath: instancePath + '/prices/' + key32.replace(/~/g, '~0').replace(/\//g, '~1'),
              schemaPath: '#/properties/prices/additionalProperties/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err253];
            } else {
              vErrors.push(err253);
            }
            errors++;
          }
        }
      } else {
        const err254 = {
          instancePath: instancePath + '/prices',
          schemaPath: '#/properties/prices/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err254];
        } else {
          vErrors.push(err254);
        }
        errors++;
      }
    }
    if (data.pricing !== undefined) {
      let data135 = data.pricing;
      if (data135 && typeof data135 == 'object' && !Array.isArray(data135)) {
        for (const key34 in data135) {
          let data136 = data135[key34];
          if (data136 && typeof data136 == 'object' && !Array.isArray(data136)) {
            if (data136.input_per_mtok === undefined) {
              const err255 = {
                instancePath: instancePath + '/pricing/' + key34.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/pricing/additionalProperties/required',
                keyword: 'required',
                params: { missingProperty: 'input_per_mtok' },
                message: "must have required property '" + 'input_per_mtok' + "'",
              };
              if (vErrors === null) {
                vErrors = [err255];
              } else {
                vErrors.push(err255);
              }
              errors++;
            }
            if (data136.output_per_mtok === undefined) {
              const err256 = {
                instancePath: instancePath + '/pricing/' + key34.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/pricing/additionalProperties/required',
                keyword: 'required',
                params: { missingProperty: 'output_per_mtok' },
                message: "must have required property '" + 'output_per_mtok' + "'",
              };
              if (vErrors === null) {
                vErrors = [err256];
              } else {
                vErrors.push(err256);
              }
              errors++;
            }
            for (const key35 in data136) {
              if (!(key35 === 'input_per_mtok' || key35 === 'output_per_mtok' || key35 === 'cached_input_per_mtok')) {
                const err257 = {
                  instancePath: instancePath + '/pricing/' + key34.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/pricing/additionalProperties/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key35 },
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
            if (data136.input_per_mtok !== undefined) {
              let data137 = data136.input_per_mtok;
              if (typeof data137 == 'number') {
                if (data137 < 0 || isNaN(data137)) {
                  const err258 = {
                    instancePath:
                      instancePath + '/pricing/' + key34.replace(/~/g, '~0').replace(/\//g, '~1') + '/input_per_mtok',
                    schemaPath: '#/properties/pricing/additionalProperties/properties/input_per_mtok/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err258];
                  } else {
                    vErrors.push(err258);
                  }
                  errors++;
                }
              } else {
                const err259 = {
                  instancePath:
                    instancePath + '/pricing/' + key34.replace(/~/g, '~0').replace(/\//g, '~1') + '/input_per_mtok',
                  schemaPath: '#/properties/pricing/additionalProperties/properties/input_per_mtok/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err259];
                } else {
                  vErrors.push(err259);
                }
                errors++;
              }
            }
            if (data136.output_per_mtok !== undefined) {
              let data138 = data136.output_per_mtok;
              if (typeof data138 == 'number') {
                if (data138 < 0 || isNaN(data138)) {
                  const err260 = {
                    instancePath:
                      instancePath + '/pricing/' + key34.replace(/~/g, '~0').replace(/\//g, '~1') + '/output_per_mtok',
                    schemaPath: '#/properties/pricing/additionalProperties/properties/output_per_mtok/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err260];
                  } else {
                    vErrors.push(err260);
                  }
                  errors++;
                }
              } else {
                const err261 = {
                  instancePath:
                    instancePath + '/pricing/' + key34.replace(/~/g, '~0').replace(/\//g, '~1') + '/output_per_mtok',
                  schemaPath: '#/properties/pricing/additionalProperties/properties/output_per_mtok/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err261];
                } else {
                  vErrors.push(err261);
                }
                errors++;
              }
            }
            if (data136.cached_input_per_mtok !== undefined) {
              let data139 = data136.cached_input_per_mtok;
              if (typeof data139 == 'number') {
                if (data139 < 0 || isNaN(data139)) {
                  const err262 = {
                    instancePath:
                      instancePath +
                      '/pricing/' +
                      key34.replace(/~/g, '~0').replace(/\//g, '~1') +
                      '/cached_input_per_mtok',
                    schemaPath: '#/properties/pricing/additionalProperties/properties/cached_input_per_mtok/minimum',
                    keyword: 'minimum',
                    params: { comparison: '>=', limit: 0 },
                    message: 'must be >= 0',
                  };
                  if (vErrors === null) {
                    vErrors = [err262];
                  } else {
                    vErrors.push(err262);
                  }
                  errors++;
                }
              } else {
                const err263 = {
                  instancePath:
                    instancePath +
                    '/pricing/' +
                    key34.replace(/~/g, '~0').replace(/\//g, '~1') +
                    '/cached_input_per_mtok',
                  schemaPath: '#/properties/pricing/additionalProperties/properties/cached_input_per_mtok/type',
                  keyword: 'type',
                  params: { type: 'number' },
                  message: 'must be number',
                };
                if (vErrors === null) {
                  vErrors = [err263];
                } else {
                  vErrors.push(err263);
                }
                errors++;
              }
            }
          } else {
            const err264 = {
              instancePath: instancePath + '/pricing/' + key34.replace(/~/g, '~0').replace(/\//g, '~1'),
              schemaPath: '#/properties/pricing/additionalProperties/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
            };
            if (vErrors === null) {
              vErrors = [err264];
            } else {
              vErrors.push(err264);
            }
            errors++;
          }
        }
      } else {
        const err265 = {
          instancePath: instancePath + '/pricing',
          schemaPath: '#/properties/pricing/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err265];
        } else {
          vErrors.push(err265);
        }
        errors++;
      }
    }
    if (data.allow_outside_root !== undefined) {
      if (typeof data.allow_outside_root !== 'boolean') {
        const err266 = {
          instancePath: instancePath + '/allow_outside_root',
          schemaPath: '#/properties/allow_outside_root/type',
          keyword: 'type',
          params: { type: 'boolean' },
          message: 'must be boolean',
        };
        if (vErrors === null) {
          vErrors = [err266];
        } else {
          vErrors.push(err266);
        }
        errors++;
      }
    }
    if (data.pii !== undefined) {
      let data141 = data.pii;
      if (data141 && typeof data141 == 'object' && !Array.isArray(data141)) {
        for (const key36 in data141) {
          if (!(key36 === 'redact' || key36 === 'custom' || key36 === 'restore_in_result')) {
            const err267 = {
              instancePath: instancePath + '/pii',
              schemaPath: '#/properties/pii/additionalProperties',
              keyword: 'additionalProperties',
              params: { additionalProperty: key36 },
              message: 'must NOT have additional properties',
            };
            if (vErrors === null) {
              vErrors = [err267];
            } else {
              vErrors.push(err267);
            }
            errors++;
          }
        }
        if (data141.redact !== undefined) {
          let data142 = data141.redact;
          if (Array.isArray(data142)) {
            const len9 = data142.length;
            for (let i12 = 0; i12 < len9; i12++) {
              let data143 = data142[i12];
              if (!(
                data143 === 'email' ||
                data143 === 'phone' ||
                data143 === 'credit_card' ||
                data143 === 'iban' ||
                data143 === 'national_id' ||
                data143 === 'ip_address' ||
                data143 === 'secret'
              )) {
                const err268 = {
                  instancePath: instancePath + '/pii/redact/' + i12,
                  schemaPath: '#/properties/pii/properties/redact/items/enum',
                  keyword: 'enum',
                  params: { allowedValues: schema11.properties.pii.properties.redact.items.enum },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err268];
                } else {
                  vErrors.push(err268);
                }
                errors++;
              }
            }
            let i13 = data142.length;
            let j3;
            if (i13 > 1) {
              outer1: for (; i13--;) {
                for (j3 = i13; j3--;) {
                  if (func0(data142[i13], data142[j3])) {
                    const err269 = {
                      instancePath: instancePath + '/pii/redact',
                      schemaPath: '#/properties/pii/properties/redact/uniqueItems',
                      keyword: 'uniqueItems',
                      params: { i: i13, j: j3 },
                      message: 'must NOT have duplicate items (items ## ' + j3 + ' and ' + i13 + ' are identical)',
                    };
                    if (vErrors === null) {
                      vErrors = [err269];
                    } else {
                      vErrors.push(err269);
                    }
                    errors++;
                    break outer1;
                  }
                }
              }
            }
          } else {
            const err270 = {
              instancePath: instancePath + '/pii/redact',
              schemaPath: '#/properties/pii/properties/redact/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err270];
            } else {
              vErrors.push(err270);
            }
            errors++;
          }
        }
        if (data141.custom !== undefined) {
          let data144 = data141.custom;
          if (Array.isArray(data144)) {
            const len10 = data144.length;
            for (let i14 = 0; i14 < len10; i14++) {
              let data145 = data144[i14];
              if (data145 && typeof data145 == 'object' && !Array.isArray(data145)) {
                if (data145.name === undefined) {
                  const err271 = {
                    instancePath: instancePath + '/pii/custom/' + i14,
                    schemaPath: '#/properties/pii/properties/custom/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'name' },
                    message: "must have required property '" + 'name' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err271];
                  } else {
                    vErrors.push(err271);
                  }
                  errors++;
                }
                if (data145.pattern === undefined) {
                  const err272 = {
                    instancePath: instancePath + '/pii/custom/' + i14,
                    schemaPath: '#/properties/pii/properties/custom/items/required',
                    keyword: 'required',
                    params: { missingProperty: 'pattern' },
                    message: "must have required property '" + 'pattern' + "'",
                  };
                  if (vErrors === null) {
                    vErrors = [err272];
                  } else {
                    vErrors.push(err272);
                  }
                  errors++;
                }
                for (const key37 in data145) {
                  if (!(key37 === 'name' || key37 === 'pattern')) {
                    const err273 = {
                      instancePath: instancePath + '/pii/custom/' + i14,
                      schemaPath: '#/properties/pii/properties/custom/items/additionalProperties',
                      keyword: 'additionalProperties',
                      params: { additionalProperty: key37 },
                      message: 'must NOT have additional properties',
                    };
                    if (vErrors === null) {
                      vErrors = [err273];
                    } else {
                      vErrors.push(err273);
                    }
                    errors++;
                  }
                }
                if (data145.name !== undefined) {
                  let data146 = data145.name;
                  if (typeof data146 === 'string') {
                    if (!pattern11.test(data146)) {
                      const err274 = {
                        instancePath: instancePath + '/pii/custom/' + i14 + '/name',
                        schemaPath: '#/properties/pii/properties/custom/items/properties/name/pattern',
                        keyword: 'pattern',
                        params: { pattern: '^[a-z][a-z0-9_]*$' },
                        message: 'must match pattern "' + '^[a-z][a-z0-9_]*$' + '"',
                      };
                      if (vErrors === null) {
                        vErrors = [err274];
                      } else {
                        vErrors.push(err274);
                      }
                      errors++;
                    }
                  } else {
                    const err275 = {
                      instancePath: instancePath + '/pii/custom/' + i14 + '/name',
                      schemaPath: '#/properties/pii/properties/custom/items/properties/name/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err275];
                    } else {
                      vErrors.push(err275);
                    }
                    errors++;
                  }
                }
                if (data145.pattern !== undefined) {
                  let data147 = data145.pattern;
                  if (typeof data147 === 'string') {
                    if (func3(data147) < 1) {
                      const err276 = {
                        instancePath: instancePath + '/pii/custom/' + i14 + '/pattern',
                        schemaPath: '#/properties/pii/properties/custom/items/properties/pattern/minLength',
                        keyword: 'minLength',
                        params: { limit: 1 },
                        message: 'must NOT have fewer than 1 characters',
                      };
                      if (vErrors === null) {
                        vErrors = [err276];
                      } else {
                        vErrors.push(err276);
                      }
                      errors++;
                    }
                  } else {
                    const err277 = {
                      instancePath: instancePath + '/pii/custom/' + i14 + '/pattern',
                      schemaPath: '#/properties/pii/properties/custom/items/properties/pattern/type',
                      keyword: 'type',
                      params: { type: 'string' },
                      message: 'must be string',
                    };
                    if (vErrors === null) {
                      vErrors = [err277];
                    } else {
                      vErrors.push(err277);
                    }
                    errors++;
                  }
                }
              } else {
                const err278 = {
                  instancePath: instancePath + '/pii/custom/' + i14,
                  schemaPath: '#/properties/pii/properties/custom/items/type',
                  keyword: 'type',
                  params: { type: 'object' },
                  message: 'must be object',
                };
                if (vErrors === null) {
                  vErrors = [err278];
                } else {
                  vErrors.push(err278);
                }
                errors++;
              }
            }
          } else {
            const err279 = {
              instancePath: instancePath + '/pii/custom',
              schemaPath: '#/properties/pii/properties/custom/type',
              keyword: 'type',
              params: { type: 'array' },
              message: 'must be array',
            };
            if (vErrors === null) {
              vErrors = [err279];
            } else {
              vErrors.push(err279);
            }
            errors++;
          }
        }
        if (data141.restore_in_result !== undefined) {
          if (typeof data141.restore_in_result !== 'boolean') {
            const err280 = {
              instancePath: instancePath + '/pii/restore_in_result',
              schemaPath: '#/properties/pii/properties/restore_in_result/type',
              keyword: 'type',
              params: { type: 'boolean' },
              message: 'must be boolean',
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
          instancePath: instancePath + '/pii',
          schemaPath: '#/properties/pii/type',
          keyword: 'type',
          params: { type: 'object' },
          message: 'must be object',
        };
        if (vErrors === null) {
          vErrors = [err281];
        } else {
          vErrors.push(err281);
        }
        errors++;
      }
    }
    if (data.guardrails !== undefined) {
      let data149 = data.guardrails;
      if (Array.isArray(data149)) {
        const len11 = data149.length;
        for (let i15 = 0; i15 < len11; i15++) {
          let data150 = data149[i15];
          if (!(data150 && typeof data150 == 'object' && !Array.isArray(data150))) {
            const err282 = {
              instancePath: instancePath + '/guardrails/' + i15,
              schemaPath: '#/properties/guardrails/items/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
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
          instancePath: instancePath + '/guardrails',
          schemaPath: '#/properties/guardrails/type',
          keyword: 'type',
          params: { type: 'array' },
          message: 'must be array',
        };
        if (vErrors === null) {
          vErrors = [err283];
        } else {
          vErrors.push(err283);
        }
        errors++;
      }
    }
    if (data.agents !== undefined) {
      let data151 = data.agents;
      if (data151 && typeof data151 == 'object' && !Array.isArray(data151)) {
        for (const key38 in data151) {
          if (!(key38 === 'claude_code_dir' || key38 === 'claude_code')) {
            let data152 = data151[key38];
            if (data152 && typeof data152 == 'object' && !Array.isArray(data152)) {
              if (data152.type === undefined) {
                const err284 = {
                  instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/agents/additionalProperties/required',
                  keyword: 'required',
                  params: { missingProperty: 'type' },
                  message: "must have required property '" + 'type' + "'",
                };
                if (vErrors === null) {
                  vErrors = [err284];
                } else {
                  vErrors.push(err284);
                }
                errors++;
              }
              if (data152.description === undefined) {
                const err285 = {
                  instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1'),
                  schemaPath: '#/properties/agents/additionalProperties/required',
                  keyword: 'required',
                  params: { missingProperty: 'description' },
                  message: "must have required property '" + 'description' + "'",
                };
                if (vErrors === null) {
                  vErrors = [err285];
                } else {
                  vErrors.push(err285);
                }
                errors++;
              }
              for (const key39 in data152) {
                if (!func2.call(schema11.properties.agents.additionalProperties.properties, key39)) {
                  const err286 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1'),
                    schemaPath: '#/properties/agents/additionalProperties/additionalProperties',
                    keyword: 'additionalProperties',
                    params: { additionalProperty: key39 },
                    message: 'must NOT have additional properties',
                  };
                  if (vErrors === null) {
                    vErrors = [err286];
                  } else {
                    vErrors.push(err286);
                  }
                  errors++;
                }
              }
              if (data152.name !== undefined) {
                let data153 = data152.name;
                if (typeof data153 === 'string') {
                  if (!pattern11.test(data153)) {
                    const err287 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/name',
                      schemaPath: '#/properties/agents/additionalProperties/properties/name/pattern',
                      keyword: 'pattern',
                      params: { pattern: '^[a-z][a-z0-9_]*$' },
                      message: 'must match pattern "' + '^[a-z][a-z0-9_]*$' + '"',
                    };
                    if (vErrors === null) {
                      vErrors = [err287];
                    } else {
                      vErrors.push(err287);
                    }
                    errors++;
                  }
                } else {
                  const err288 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/name',
                    schemaPath: '#/properties/agents/additionalProperties/properties/name/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err288];
                  } else {
                    vErrors.push(err288);
                  }
                  errors++;
                }
              }
              if (data152.type !== undefined) {
                let data154 = data152.type;
                if (!(data154 === 'governance' || data154 === 'operational' || data154 === 'executional')) {
                  const err289 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/type',
                    schemaPath: '#/properties/agents/additionalProperties/properties/type/enum',
                    keyword: 'enum',
                    params: { allowedValues: schema11.properties.agents.additionalProperties.properties.type.enum },
                    message: 'must be equal to one of the allowed values',
                  };
                  if (vErrors === null) {
                    vErrors = [err289];
                  } else {
                    vErrors.push(err289);
                  }
                  errors++;
                }
              }
              if (data152.description !== undefined) {
                let data155 = data152.description;
                if (typeof data155 === 'string') {
                  if (func3(data155) < 1) {
                    const err290 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/description',
                      schemaPath: '#/properties/agents/additionalProperties/properties/description/minLength',
                      keyword: 'minLength',
                      params: { limit: 1 },
                      message: 'must NOT have fewer than 1 characters',
                    };
                    if (vErrors === null) {
                      vErrors = [err290];
                    } else {
                      vErrors.push(err290);
                    }
                    errors++;
                  }
                } else {
                  const err291 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/description',
                    schemaPath: '#/properties/agents/additionalProperties/properties/description/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err291];
                  } else {
                    vErrors.push(err291);
                  }
                  errors++;
                }
              }
              if (data152.entry !== undefined) {
                if (typeof data152.entry !== 'boolean') {
                  const err292 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/entry',
                    schemaPath: '#/properties/agents/additionalProperties/properties/entry/type',
                    keyword: 'type',
                    params: { type: 'boolean' },
                    message: 'must be boolean',
                  };
                  if (vErrors === null) {
                    vErrors = [err292];
                  } else {
                    vErrors.push(err292);
                  }
                  errors++;
                }
              }
              if (data152.next !== undefined) {
                let data157 = data152.next;
                if (!Array.isArray(data157) && data157 !== null) {
                  const err293 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/next',
                    schemaPath: '#/properties/agents/additionalProperties/properties/next/type',
                    keyword: 'type',
                    params: { type: schema11.properties.agents.additionalProperties.properties.next.type },
                    message: 'must be array,null',
                  };
                  if (vErrors === null) {
                    vErrors = [err293];
                  } else {
                    vErrors.push(err293);
                  }
                  errors++;
                }
                if (Array.isArray(data157)) {
                  const len12 = data157.length;
                  for (let i16 = 0; i16 < len12; i16++) {
                    if (typeof data157[i16] !== 'string') {
                      const err294 = {
                        instancePath:
                          instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/next/' + i16,
                        schemaPath: '#/properties/agents/additionalProperties/properties/next/items/type',
                        keyword: 'type',
                        params: { type: 'string' },
                        message: 'must be string',
                      };
                      if (vErrors === null) {
                        vErrors = [err294];
                      } else {
                        vErrors.push(err294);
                      }
                      errors++;
                    }
                  }
                  let i17 = data157.length;
                  let j4;
                  if (i17 > 1) {
                    const indices2 = {};
                    for (; i17--;) {
                      let item2 = data157[i17];
                      if (typeof item2 !== 'string') {
                        continue;
                      }
                      if (typeof indices2[item2] == 'number') {
                        j4 = indices2[item2];
                        const err295 = {
                          instancePath:
                            instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/next',
                          schemaPath: '#/properties/agents/additionalProperties/properties/next/uniqueItems',
                          keyword: 'uniqueItems',
                          params: { i: i17, j: j4 },
                          message: 'must NOT have duplicate items (items ## ' + j4 + ' and ' + i17 + ' are identical)',
                        };
                        if (vErrors === null) {
                          vErrors = [err295];
                        } else {
                          vErrors.push(err295);
                        }
                        errors++;
                        break;
                      }
                      indices2[item2] = i17;
                    }
                  }
                }
              }
              if (data152.content_type !== undefined) {
                let data159 = data152.content_type;
                if (typeof data159 === 'string') {
                  if (func3(data159) < 1) {
                    const err296 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/content_type',
                      schemaPath: '#/properties/agents/additionalProperties/properties/content_type/minLength',
                      keyword: 'minLength',
                      params: { limit: 1 },
                      message: 'must NOT have fewer than 1 characters',
                    };
                    if (vErrors === null) {
                      vErrors = [err296];
                    } else {
                      vErrors.push(err296);
                    }
                    errors++;
                  }
                } else {
                  const err297 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/content_type',
                    schemaPath: '#/properties/agents/additionalProperties/properties/content_type/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err297];
                  } else {
                    vErrors.push(err297);
                  }
                  errors++;
                }
              }
              if (data152.output_schema !== undefined) {
                let data160 = data152.output_schema;
                if (
                  typeof data160 !== 'string' &&
                  !(data160 && typeof data160 == 'object' && !Array.isArray(data160))
                ) {
                  const err298 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/output_schema',
                    schemaPath: '#/properties/agents/additionalProperties/properties/output_schema/type',
                    keyword: 'type',
                    params: { type: schema11.properties.agents.additionalProperties.properties.output_schema.type },
                    message: 'must be string,object',
                  };
                  if (vErrors === null) {
                    vErrors = [err298];
                  } else {
                    vErrors.push(err298);
                  }
                  errors++;
                }
              }
              if (data152.plan !== undefined) {
                if (typeof data152.plan !== 'boolean') {
                  const err299 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/plan',
                    schemaPath: '#/properties/agents/additionalProperties/properties/plan/type',
                    keyword: 'type',
                    params: { type: 'boolean' },
                    message: 'must be boolean',
                  };
                  if (vErrors === null) {
                    vErrors = [err299];
                  } else {
                    vErrors.push(err299);
                  }
                  errors++;
                }
              }
              if (data152.on_failure !== undefined) {
                if (typeof data152.on_failure !== 'string') {
                  const err300 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/on_failure',
                    schemaPath: '#/properties/agents/additionalProperties/properties/on_failure/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err300];
                  } else {
                    vErrors.push(err300);
                  }
                  errors++;
                }
              }
              if (data152.model !== undefined) {
                let data163 = data152.model;
                if (typeof data163 === 'string') {
                  if (func3(data163) < 1) {
                    const err301 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/model',
                      schemaPath: '#/properties/agents/additionalProperties/properties/model/minLength',
                      keyword: 'minLength',
                      params: { limit: 1 },
                      message: 'must NOT have fewer than 1 characters',
                    };
                    if (vErrors === null) {
                      vErrors = [err301];
                    } else {
                      vErrors.push(err301);
                    }
                    errors++;
                  }
                } else {
                  const err302 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/model',
                    schemaPath: '#/properties/agents/additionalProperties/properties/model/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err302];
                  } else {
                    vErrors.push(err302);
                  }
                  errors++;
                }
              }
              if (data152.temperature !== undefined) {
                let data164 = data152.temperature;
                if (typeof data164 == 'number') {
                  if (data164 > 2 || isNaN(data164)) {
                    const err303 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/temperature',
                      schemaPath: '#/properties/agents/additionalProperties/properties/temperature/maximum',
                      keyword: 'maximum',
                      params: { comparison: '<=', limit: 2 },
                      message: 'must be <= 2',
                    };
                    if (vErrors === null) {
                      vErrors = [err303];
                    } else {
                      vErrors.push(err303);
                    }
                    errors++;
                  }
                  if (data164 < 0 || isNaN(data164)) {
                    const err304 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/temperature',
                      schemaPath: '#/properties/agents/additionalProperties/properties/temperature/minimum',
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
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/temperature',
                    schemaPath: '#/properties/agents/additionalProperties/properties/temperature/type',
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
              if (data152.max_tokens !== undefined) {
                let data165 = data152.max_tokens;
                if (!(typeof data165 == 'number' && !(data165 % 1) && !isNaN(data165))) {
                  const err306 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_tokens',
                    schemaPath: '#/properties/agents/additionalProperties/properties/max_tokens/type',
                    keyword: 'type',
                    params: { type: 'integer' },
                    message: 'must be integer',
                  };
                  if (vErrors === null) {
                    vErrors = [err306];
                  } else {
                    vErrors.push(err306);
                  }
                  errors++;
                }
                if (typeof data165 == 'number') {
                  if (data165 < 1 || isNaN(data165)) {
                    const err307 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_tokens',
                      schemaPath: '#/properties/agents/additionalProperties/properties/max_tokens/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 1 },
                      message: 'must be >= 1',
                    };
                    if (vErrors === null) {
                      vErrors = [err307];
                    } else {
                      vErrors.push(err307);
                    }
                    errors++;
                  }
                }
              }
              if (data152.timeout_ms !== undefined) {
                let data166 = data152.timeout_ms;
                if (!(typeof data166 == 'number' && !(data166 % 1) && !isNaN(data166))) {
                  const err308 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/timeout_ms',
                    schemaPath: '#/properties/agents/additionalProperties/properties/timeout_ms/type',
                    keyword: 'type',
                    params: { type: 'integer' },
                    message: 'must be integer',
                  };
                  if (vErrors === null) {
                    vErrors = [err308];
                  } else {
                    vErrors.push(err308);
                  }
                  errors++;
                }
                if (typeof data166 == 'number') {
                  if (data166 < 1 || isNaN(data166)) {
                    const err309 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/timeout_ms',
                      schemaPath: '#/properties/agents/additionalProperties/properties/timeout_ms/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 1 },
                      message: 'must be >= 1',
                    };
                    if (vErrors === null) {
                      vErrors = [err309];
                    } else {
                      vErrors.push(err309);
                    }
                    errors++;
                  }
                }
              }
              if (data152.max_retries !== undefined) {
                let data167 = data152.max_retries;
                if (!(typeof data167 == 'number' && !(data167 % 1) && !isNaN(data167))) {
                  const err310 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_retries',
                    schemaPath: '#/properties/agents/additionalProperties/properties/max_retries/type',
                    keyword: 'type',
                    params: { type: 'integer' },
                    message: 'must be integer',
                  };
                  if (vErrors === null) {
                    vErrors = [err310];
                  } else {
                    vErrors.push(err310);
                  }
                  errors++;
                }
                if (typeof data167 == 'number') {
                  if (data167 < 0 || isNaN(data167)) {
                    const err311 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_retries',
                      schemaPath: '#/properties/agents/additionalProperties/properties/max_retries/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 0 },
                      message: 'must be >= 0',
                    };
                    if (vErrors === null) {
                      vErrors = [err311];
                    } else {
                      vErrors.push(err311);
                    }
                    errors++;
                  }
                }
              }
              if (data152.file !== undefined) {
                if (typeof data152.file !== 'string') {
                  const err312 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/file',
                    schemaPath: '#/properties/agents/additionalProperties/properties/file/type',
                    keyword: 'type',
                    params: { type: 'string' },
                    message: 'must be string',
                  };
                  if (vErrors === null) {
                    vErrors = [err312];
                  } else {
                    vErrors.push(err312);
                  }
                  errors++;
                }
              }
              if (data152.tools !== undefined) {
                let data169 = data152.tools;
                if (Array.isArray(data169)) {
                  const len13 = data169.length;
                  for (let i18 = 0; i18 < len13; i18++) {
                    let data170 = data169[i18];
                    if (typeof data170 === 'string') {
                      if (func3(data170) < 1) {
                        const err313 = {
                          instancePath:
                            instancePath +
                            '/agents/' +
                            key38.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/tools/' +
                            i18,
                          schemaPath: '#/properties/agents/additionalProperties/properties/tools/items/minLength',
                          keyword: 'minLength',
                          params: { limit: 1 },
                          message: 'must NOT have fewer than 1 characters',
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
                          instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/tools/' + i18,
                        schemaPath: '#/properties/agents/additionalProperties/properties/tools/items/type',
                        keyword: 'type',
                        params: { type: 'string' },
                        message: 'must be string',
                      };
                      if (vErrors === null) {
                        vErrors = [err314];
                      } else {
                        vErrors.push(err314);
                      }
                      errors++;
                    }
                  }
                  let i19 = data169.length;
                  let j5;
                  if (i19 > 1) {
                    const indices3 = {};
                    for (; i19--;) {
                      let item3 = data169[i19];
                      if (typeof item3 !== 'string') {
                        continue;
                      }
                      if (typeof indices3[item3] == 'number') {
                        j5 = indices3[item3];
                        const err315 = {
                          instancePath:
                            instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/tools',
                          schemaPath: '#/properties/agents/additionalProperties/properties/tools/uniqueItems',
                          keyword: 'uniqueItems',
                          params: { i: i19, j: j5 },
                          message: 'must NOT have duplicate items (items ## ' + j5 + ' and ' + i19 + ' are identical)',
                        };
                        if (vErrors === null) {
                          vErrors = [err315];
                        } else {
                          vErrors.push(err315);
                        }
                        errors++;
                        break;
                      }
                      indices3[item3] = i19;
                    }
                  }
                } else {
                  const err316 = {
                    instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/tools',
                    schemaPath: '#/properties/agents/additionalProperties/properties/tools/type',
                    keyword: 'type',
                    params: { type: 'array' },
                    message: 'must be array',
                  };
                  if (vErrors === null) {
                    vErrors = [err316];
                  } else {
                    vErrors.push(err316);
                  }
                  errors++;
                }
              }
              if (data152.max_turns !== undefined) {
                let data171 = data152.max_turns;
                if (!(typeof data171 == 'number' && !(data171 % 1) && !isNaN(data171))) {
                  const err317 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_turns',
                    schemaPath: '#/properties/agents/additionalProperties/properties/max_turns/type',
                    keyword: 'type',
                    params: { type: 'integer' },
                    message: 'must be integer',
                  };
                  if (vErrors === null) {
                    vErrors = [err317];
                  } else {
                    vErrors.push(err317);
                  }
                  errors++;
                }
                if (typeof data171 == 'number') {
                  if (data171 < 1 || isNaN(data171)) {
                    const err318 = {
                      instancePath:
                        instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/max_turns',
                      schemaPath: '#/properties/agents/additionalProperties/properties/max_turns/minimum',
                      keyword: 'minimum',
                      params: { comparison: '>=', limit: 1 },
                      message: 'must be >= 1',
                    };
                    if (vErrors === null) {
                      vErrors = [err318];
                    } else {
                      vErrors.push(err318);
                    }
                    errors++;
                  }
                }
              }
              if (data152.approval !== undefined) {
                let data172 = data152.approval;
                if (Array.isArray(data172)) {
                  const len14 = data172.length;
                  for (let i20 = 0; i20 < len14; i20++) {
                    let data173 = data172[i20];
                    if (typeof data173 === 'string') {
                      if (func3(data173) < 1) {
                        const err319 = {
                          instancePath:
                            instancePath +
                            '/agents/' +
                            key38.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/approval/' +
                            i20,
                          schemaPath: '#/properties/agents/additionalProperties/properties/approval/items/minLength',
                          keyword: 'minLength',
                          params: { limit: 1 },
                          message: 'must NOT have fewer than 1 characters',
                        };
                        if (vErrors === null) {
                          vErrors = [err319];
                        } else {
                          vErrors.push(err319);
                        }
                        errors++;
                      }
                    } else {
                      const err320 = {
                        instancePath:
                          instancePath +
                          '/agents/' +
                          key38.replace(/~/g, '~0').replace(/\//g, '~1') +
                          '/approval/' +
                          i20,
                        schemaPath: '#/properties/agents/additionalProperties/properties/approval/items/type',
                        keyword: 'type',
                        params: { type: 'string' },
                        message: 'must be string',
                      };
                      if (vErrors === null) {
                        vErrors = [err320];
                      } else {
                        vErrors.push(err320);
                      }
                      errors++;
                    }
                  }
                  let i21 = data172.length;
                  let j6;
                  if (i21 > 1) {
                    const indices4 = {};
                    for (; i21--;) {
                      let item4 = data172[i21];
                      if (typeof item4 !== 'string') {
                        continue;
                      }
                      if (typeof indices4[item4] == 'number') {
                        j6 = indices4[item4];
                        const err321 = {
                          instancePath:
                            instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/approval',
                          schemaPath: '#/properties/agents/additionalProperties/properties/approval/uniqueItems',
                          keyword: 'uniqueItems',
                          params: { i: i21, j: j6 },
                          message: 'must NOT have duplicate items (items ## ' + j6 + ' and ' + i21 + ' are identical)',
                        };
                        if (vErrors === null) {
                          vErrors = [err321];
                        } else {
                          vErrors.push(err321);
                        }
                        errors++;
                        break;
                      }
                      indices4[item4] = i21;
                    }
                  }
                } else {
                  const err322 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/approval',
                    schemaPath: '#/properties/agents/additionalProperties/properties/approval/type',
                    keyword: 'type',
                    params: { type: 'array' },
                    message: 'must be array',
                  };
                  if (vErrors === null) {
                    vErrors = [err322];
                  } else {
                    vErrors.push(err322);
                  }
                  errors++;
                }
              }
              if (data152.delegates !== undefined) {
                let data174 = data152.delegates;
                if (Array.isArray(data174)) {
                  const len15 = data174.length;
                  for (let i22 = 0; i22 < len15; i22++) {
                    let data175 = data174[i22];
                    if (typeof data175 === 'string') {
                      if (func3(data175) < 1) {
                        const err323 = {
                          instancePath:
                            instancePath +
                            '/agents/' +
                            key38.replace(/~/g, '~0').replace(/\//g, '~1') +
                            '/delegates/' +
                            i22,
                          schemaPath: '#/properties/agents/additionalProperties/properties/delegates/items/minLength',
                          keyword: 'minLength',
                          params: { limit: 1 },
                          message: 'must NOT have fewer than 1 characters',
                        };
                        if (vErrors === null) {
                          vErrors = [err323];
                        } else {
                          vErrors.push(err323);
                        }
                        errors++;
                      }
                    } else {
                      const err324 = {
                        instancePath:
                          instancePath +
                          '/agents/' +
                          key38.replace(/~/g, '~0').replace(/\//g, '~1') +
                          '/delegates/' +
                          i22,
                        schemaPath: '#/properties/agents/additionalProperties/properties/delegates/items/type',
                        keyword: 'type',
                        params: { type: 'string' },
                        message: 'must be string',
                      };
                      if (vErrors === null) {
                        vErrors = [err324];
                      } else {
                        vErrors.push(err324);
                      }
                      errors++;
                    }
                  }
                  let i23 = data174.length;
                  let j7;
                  if (i23 > 1) {
                    const indices5 = {};
                    for (; i23--;) {
                      let item5 = data174[i23];
                      if (typeof item5 !== 'string') {
                        continue;
                      }
                      if (typeof indices5[item5] == 'number') {
                        j7 = indices5[item5];
                        const err325 = {
                          instancePath:
                            instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/delegates',
                          schemaPath: '#/properties/agents/additionalProperties/properties/delegates/uniqueItems',
                          keyword: 'uniqueItems',
                          params: { i: i23, j: j7 },
                          message: 'must NOT have duplicate items (items ## ' + j7 + ' and ' + i23 + ' are identical)',
                        };
                        if (vErrors === null) {
                          vErrors = [err325];
                        } else {
                          vErrors.push(err325);
                        }
                        errors++;
                        break;
                      }
                      indices5[item5] = i23;
                    }
                  }
                } else {
                  const err326 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/delegates',
                    schemaPath: '#/properties/agents/additionalProperties/properties/delegates/type',
                    keyword: 'type',
                    params: { type: 'array' },
                    message: 'must be array',
                  };
                  if (vErrors === null) {
                    vErrors = [err326];
                  } else {
                    vErrors.push(err326);
                  }
                  errors++;
                }
              }
              if (data152.attachments !== undefined) {
                let data176 = data152.attachments;
                if (!(data176 === 'inline' || data176 === 'list' || data176 === 'native')) {
                  const err327 = {
                    instancePath:
                      instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1') + '/attachments',
                    schemaPath: '#/properties/agents/additionalProperties/properties/attachments/enum',
                    keyword: 'enum',
                    params: {
                      allowedValues: schema11.properties.agents.additionalProperties.properties.attachments.enum,
                    },
                    message: 'must be equal to one of the allowed values',
                  };
                  if (vErrors === null) {
                    vErrors = [err327];
                  } else {
                    vErrors.push(err327);
                  }
                  errors++;
                }
              }
            } else {
              const err328 = {
                instancePath: instancePath + '/agents/' + key38.replace(/~/g, '~0').replace(/\//g, '~1'),
                schemaPath: '#/properties/agents/additionalProperties/type',
                keyword: 'type',
                params: { type: 'object' },
                message: 'must be object',
              };
              if (vErrors === null) {
                vErrors = [err328];
              } else {
                vErrors.push(err328);
              }
              errors++;
            }
          }
        }
        if (data151.claude_code_dir !== undefined) {
          let data177 = data151.claude_code_dir;
          if (typeof data177 !== 'string' && data177 !== null) {
            const err329 = {
              instancePath: instancePath + '/agents/claude_code_dir',
              schemaPath: '#/properties/agents/properties/claude_code_dir/type',
              keyword: 'type',
              params: { type: schema11.properties.agents.properties.claude_code_dir.type },
              message: 'must be string,null',
            };
            if (vErrors === null) {
              vErrors = [err329];
            } else {
              vErrors.push(err329);
            }
            errors++;
          }
        }
        if (data151.claude_code !== undefined) {
          let data178 = data151.claude_code;
          if (data178 && typeof data178 == 'object' && !Array.isArray(data178)) {
            for (const key40 in data178) {
              if (!(key40 === 'unknown_tools')) {
                const err330 = {
                  instancePath: instancePath + '/agents/claude_code',
                  schemaPath: '#/properties/agents/properties/claude_code/additionalProperties',
                  keyword: 'additionalProperties',
                  params: { additionalProperty: key40 },
                  message: 'must NOT have additional properties',
                };
                if (vErrors === null) {
                  vErrors = [err330];
                } else {
                  vErrors.push(err330);
                }
                errors++;
              }
            }
            if (data178.unknown_tools !== undefined) {
              let data179 = data178.unknown_tools;
              if (!(data179 === 'warn' || data179 === 'error')) {
                const err331 = {
                  instancePath: instancePath + '/agents/claude_code/unknown_tools',
                  schemaPath: '#/properties/agents/properties/claude_code/properties/unknown_tools/enum',
                  keyword: 'enum',
                  params: {
                    allowedValues: schema11.properties.agents.properties.claude_code.properties.unknown_tools.enum,
                  },
                  message: 'must be equal to one of the allowed values',
                };
                if (vErrors === null) {
                  vErrors = [err331];
                } else {
                  vErrors.push(err331);
                }
                errors++;
              }
            }
          } else {
            const err332 = {
              instancePath: instancePath + '/agents/claude_code',
              schemaPath: '#/properties/agents/properties/claude_code/type',
              keyword: 'type',
              params: { type: 'object' },
              message: 'must be object',
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
          instancePath: instancePath + '/agents',
          schemaPath: '#/properties/agents/type',
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
      instancePath,
      schemaPath: '#/type',
      keyword: 'type',
      params: { type: 'object' },
      message: 'must be object',
    };
    if (vErrors === null) {
      vErrors = [err334];
    } else {
      vErrors.push(err334);
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
        if (!pattern11.test(data0)) {
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
  } else {
    const err45 = {
      instancePath,
      schemaPath: '#/type',
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
const pattern14 = new RegExp('^[A-Za-z0-9._-]{1,128}$', 'u');
const pattern16 = new RegExp('^(/.*)?$', 'u');
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
        if (!pattern14.test(data0)) {
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
              if (!pattern14.test(data3)) {
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
                if (!pattern16.test(key3)) {
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
