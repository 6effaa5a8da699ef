import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config-loader.js';
import { CONFIG_DEFAULTS } from '../../src/config/config-defaults.js';
import { ConfigError } from '../../src/errors.js';
import { makeTempRoot, removeTempRoots, writeFile } from './governance-root.js';

afterEach(removeTempRoots);

function rootWithConfig(yaml: string): string {
  const root = makeTempRoot();
  writeFile(root, 'govflow.config.yaml', yaml);
  return root;
}

/** Runs `load` and returns the ConfigError it throws; fails the test when it throws nothing else. */
function configError(load: () => unknown): ConfigError {
  try {
    load();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError, but the config loaded');
}

describe('loadConfig defaults', () => {
  it('gives every documented default when there is no config file and no environment', () => {
    const root = makeTempRoot();
    const config = loadConfig(root, {});
    expect(config.configFile).toBeNull();
    expect(config.root).toBe(root);
    expect(config.timezone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(config.provider.kind).toBe('dry-run');
    expect(config.provider.model).toBe('gpt-4.1-mini');
    expect(config.provider.base_url).toBeNull();
    expect(config.llm).toMatchObject({ max_attempts: 3, timeout_ms: 120_000 });
    expect(config.limits).toEqual({
      max_steps: 20,
      max_fan_out: 3,
      max_retries: 2,
      session_timeout_ms: 1_800_000,
      max_tokens_per_session: null,
      max_cost_usd_per_session: null,
      max_crash_retries: 2,
      max_depth: 2,
      delegation_deadline_ms: 300_000,
      max_tokens_per_delegation: null,
      on_failure: null,
      on_budget: null,
      on_deadline: null,
      user_daily_usd: null,
    });
    // SPEC §20: all off unless set.
    expect(config.notify).toEqual({ webhooks: [], allow_private_targets: false });
    expect(config.http).toMatchObject({ rate_limit: null, max_queued: null });
    expect(config.llm.max_output_bytes).toBe(1_048_576);
    expect(config.message.max_depth).toBe(64);
    expect(config.intake).toMatchObject({ concurrency: 2, max_bytes: 1_048_576 });
    expect(config.message.schema).toBeNull();
    expect(config.prompt.include).toEqual(['context/**/*.md', 'governance/*.md']);
    expect(config.agents).toEqual({});
    expect(config.paths.inbox).toBe(`${root}/system/inbox`);
  });

  it('reads the SPEC §20 keys and refuses bad ones, naming the key', () => {
    const config = loadConfig(
      rootWithConfig(
        [
          'notify:',
          '  webhooks: [{ url: "https://hooks.example/x", events: [session_finished], secret_env: HOOK_SECRET }]',
          'http: { rate_limit: { per_user_per_minute: 600 }, max_queued: 10 }',
          'limits: { user_daily_usd: { default: 5, alice: 50 } }',
          '',
        ].join('\n'),
      ),
      {},
    );
    expect(config.notify.webhooks).toEqual([
      { url: 'https://hooks.example/x', events: ['session_finished'], secret_env: 'HOOK_SECRET' },
    ]);
    expect(config.http.rate_limit).toEqual({ per_user_per_minute: 600 });
    expect(config.http.max_queued).toBe(10);
    expect(config.limits.user_daily_usd).toEqual({ default: 5, alice: 50 });
    for (const [yaml, key] of [
      ['notify: { webhooks: [{ url: "ftp://x", secret_env: S }] }', 'url'],
      ['notify: { webhooks: [{ url: "https://x", events: [session_started], secret_env: S }] }', 'events'],
      ['notify: { webhooks: [{ url: "https://x", secret_env: "not a name" }] }', 'secret_env'],
      ['notify: { webhooks: [{ url: "https://x" }] }', 'secret_env'],
      ['http: { rate_limit: { per_user_per_minute: 0 } }', 'per_user_per_minute'],
      ['http: { rate_limit: { per_hour: 5 } }', 'per_hour'],
      ['http: { max_queued: 0 }', 'max_queued'],
      ['limits: { user_daily_usd: { alice: -1 } }', 'user_daily_usd'],
    ]) {
      expect(() => loadConfig(rootWithConfig(`${yaml}\n`), {}), yaml).toThrow(new RegExp(key));
    }
  });

  it('reads the hostile-answer limits and refuses a max_depth deep enough to overflow the stack', () => {
    const config = loadConfig(
      rootWithConfig('llm: { max_output_bytes: 4096 }\nmessage: { max_depth: 10 }\nlimits: { max_crash_retries: 0 }\n'),
      {},
    );
    expect(config.llm.max_output_bytes).toBe(4096);
    expect(config.message.max_depth).toBe(10);
    expect(config.limits.max_crash_retries).toBe(0);
    expect(() => loadConfig(rootWithConfig('message:\n  max_depth: 100000\n'), {})).toThrow(
      /max_depth: must be <= 1000/,
    );
  });

  it('treats an empty config file as all defaults', () => {
    const config = loadConfig(rootWithConfig('# nothing configured yet\n'), {});
    expect(config.configFile).not.toBeNull();
    expect(config.limits.max_steps).toBe(20);
  });

  it('merges a partial section with the defaults of the keys it leaves out', () => {
    const config = loadConfig(rootWithConfig('limits:\n  max_steps: 7\n'), {});
    expect(config.limits.max_steps).toBe(7);
    expect(config.limits.max_fan_out).toBe(CONFIG_DEFAULTS.limits.max_fan_out);
  });

  it('returns a deeply frozen object that cannot leak edits back into the defaults', () => {
    const config = loadConfig(makeTempRoot(), {});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.limits)).toBe(true);
    expect(Object.isFrozen(config.provider)).toBe(true);
    expect(Object.isFrozen(config.prompt.include)).toBe(true);
    expect(() => {
      (config.limits as { max_steps: number }).max_steps = 99;
    }).toThrow(TypeError);
    expect(() => {
      (config.prompt.include as string[]).push('x');
    }).toThrow(TypeError);
    // The next load still sees the real defaults.
    expect(loadConfig(makeTempRoot(), {}).limits.max_steps).toBe(20);
  });
});

describe('loadConfig file and environment', () => {
  const fileConfig = [
    'timezone: Asia/Singapore',
    'provider:',
    '  kind: openai',
    '  model: gpt-4.1-mini',
    '  base_url: http://file.example/v1',
    '',
  ].join('\n');

  it('reads the file when the environment says nothing', () => {
    const config = loadConfig(rootWithConfig(fileConfig), {});
    expect(config.timezone).toBe('Asia/Singapore');
    expect(config.provider).toMatchObject({
      kind: 'openai',
      model: 'gpt-4.1-mini',
      base_url: 'http://file.example/v1',
    });
  });

  it('lets GOVFLOW_TIMEZONE, GOVFLOW_PROVIDER, GOVFLOW_MODEL and GOVFLOW_BASE_URL win over the file', () => {
    const config = loadConfig(rootWithConfig(fileConfig), {
      GOVFLOW_TIMEZONE: 'America/New_York',
      GOVFLOW_PROVIDER: 'ollama',
      GOVFLOW_MODEL: 'llama3.2',
      GOVFLOW_BASE_URL: 'http://127.0.0.1:11434/v1',
    });
    expect(config.timezone).toBe('America/New_York');
    expect(config.provider.kind).toBe('ollama');
    expect(config.provider.model).toBe('llama3.2');
    expect(config.provider.base_url).toBe('http://127.0.0.1:11434/v1');
  });

  it('applies each environment variable on its own, leaving the other file values', () => {
    const config = loadConfig(rootWithConfig(fileConfig), { GOVFLOW_MODEL: 'gpt-4.1' });
    expect(config.provider.model).toBe('gpt-4.1');
    expect(config.provider.kind).toBe('openai');
    expect(config.timezone).toBe('Asia/Singapore');
  });

  it('ignores empty environment variables', () => {
    const config = loadConfig(rootWithConfig(fileConfig), { GOVFLOW_PROVIDER: '', GOVFLOW_TIMEZONE: '' });
    expect(config.provider.kind).toBe('openai');
    expect(config.timezone).toBe('Asia/Singapore');
  });

  it('rejects an unknown GOVFLOW_PROVIDER, naming the variable and the allowed kinds', () => {
    const error = configError(() => loadConfig(makeTempRoot(), { GOVFLOW_PROVIDER: 'skynet' }));
    expect(error.message).toContain('GOVFLOW_PROVIDER');
    expect(error.message).toContain('skynet');
    expect(error.message).toContain('openai-compatible');
  });
});

describe('loadConfig errors name the key, the file and the line', () => {
  it('rejects an unknown top-level key at its line', () => {
    const root = rootWithConfig(['timezone: UTC', 'limits:', '  max_steps: 5', 'max_stepz: 4', ''].join('\n'));
    const error = configError(() => loadConfig(root, {}));
    expect(error.message).toContain('max_stepz');
    expect(error.file).toBe('govflow.config.yaml');
    expect(error.line).toBe(4);
    expect(error.describe()).toMatch(/^govflow\.config\.yaml:4: /);
  });

  it('rejects an unknown nested key at its own line, not its section line', () => {
    const root = rootWithConfig(
      ['timezone: UTC', 'limits:', '  max_steps: 5', '  max_fan_outt: 2', 'intake:', '  concurrency: 1', ''].join('\n'),
    );
    const error = configError(() => loadConfig(root, {}));
    expect(error.message).toContain('max_fan_outt');
    expect(error.message).toContain('limits');
    expect(error.line).toBe(4);
  });

  it('accepts audit.retention.delete_after_days only above keep_days, in files mode, naming the field and its line otherwise', () => {
    const retention = (fields: string, extra = '') =>
      rootWithConfig(`timezone: UTC\n${extra}audit:\n  retention:\n${fields}`);
    expect(
      loadConfig(retention('    keep_days: 190\n    archive: gzip\n    delete_after_days: null\n'), {}).audit.retention
        .delete_after_days,
    ).toBeNull();
    expect(loadConfig(retention('    keep_days: 190\n    delete_after_days: 400\n'), {}).audit.retention).toEqual({
      keep_days: 190,
      archive: 'gzip',
      delete_after_days: 400,
    });

    const notAbove = configError(() => loadConfig(retention('    keep_days: 190\n    delete_after_days: 190\n'), {}));
    expect(notAbove.describe()).toBe(
      'govflow.config.yaml:5: audit.retention.delete_after_days (190) must be greater than audit.retention.keep_days (190): days are deleted ' +
        'only after they were archived',
    );
    const noKeep = configError(() => loadConfig(retention('    delete_after_days: 30\n'), {}));
    expect(noKeep.describe()).toMatch(
      /^govflow\.config\.yaml:4: audit\.retention\.delete_after_days \(30\) needs audit\.retention\.keep_days/,
    );
    // Cluster mode deletes in the store (docs/cluster.md "Retention"): the same rules, nothing more.
    const cluster = loadConfig(
      retention(
        '    keep_days: 1\n    delete_after_days: 30\n',
        'store: { kind: postgres, url: "postgres://127.0.0.1/test" }\n',
      ),
      {},
    );
    expect(cluster.audit.retention).toMatchObject({ keep_days: 1, delete_after_days: 30 });
  });

  it('rejects an unknown key inside provider', () => {
    const error = configError(() => loadConfig(rootWithConfig('provider:\n  kind: openai\n  apikey: sk-123\n'), {}));
    expect(error.message).toContain('apikey');
    expect(error.line).toBe(3);
  });

  it('rejects max_steps: "ten" at the line of max_steps', () => {
    const root = rootWithConfig(['# limits', 'limits:', '  max_fan_out: 2', '  max_steps: "ten"', ''].join('\n'));
    const error = configError(() => loadConfig(root, {}));
    expect(error.message).toContain('max_steps');
    expect(error.message).toMatch(/integer/);
    expect(error.line).toBe(4);
  });

  it('rejects intake.concurrency: 0 at its line', () => {
    const root = rootWithConfig(['intake:', '  max_bytes: 1000', '  concurrency: 0', ''].join('\n'));
    const error = configError(() => loadConfig(root, {}));
    expect(error.message).toContain('concurrency');
    expect(error.message).toMatch(/>= 1/);
    expect(error.line).toBe(3);
  });

  it('rejects an unknown provider kind in the file at its line', () => {
    const error = configError(() => loadConfig(rootWithConfig('timezone: UTC\nprovider:\n  kind: skynet\n'), {}));
    expect(error.message).toContain('kind');
    expect(error.line).toBe(3);
  });

  it('rejects a config that is not a mapping', () => {
    const error = configError(() => loadConfig(rootWithConfig('- timezone: UTC\n'), {}));
    expect(error.file).toBe('govflow.config.yaml');
  });

  it('rejects timezone "Mars/Olympus" from the file at its line', () => {
    const root = rootWithConfig(['provider:', '  kind: dry-run', 'timezone: Mars/Olympus', ''].join('\n'));
    const error = configError(() => loadConfig(root, {}));
    expect(error.message).toContain('Mars/Olympus');
    expect(error.file).toBe('govflow.config.yaml');
    expect(error.line).toBe(3);
  });

  it('rejects timezone "Mars/Olympus" from GOVFLOW_TIMEZONE, naming the variable, even over a valid file', () => {
    const root = rootWithConfig('timezone: Asia/Singapore\n');
    const error = configError(() => loadConfig(root, { GOVFLOW_TIMEZONE: 'Mars/Olympus' }));
    expect(error.message).toContain('Mars/Olympus');
    expect(error.message).toContain('GOVFLOW_TIMEZONE');
    expect(error.file).toBeUndefined();
  });

  it('lets a valid GOVFLOW_TIMEZONE rescue an invalid file timezone (env wins before validation)', () => {
    const config = loadConfig(rootWithConfig('timezone: Mars/Olympus\n'), { GOVFLOW_TIMEZONE: 'UTC' });
    expect(config.timezone).toBe('UTC');
  });

  it('reports invalid YAML syntax with the line of the error', () => {
    const root = rootWithConfig(
      ['timezone: UTC', 'limits:', '  max_steps: 5', '  max_fan_out: [1, 2', 'intake:', '  concurrency: 1', ''].join(
        '\n',
      ),
    );
    const error = configError(() => loadConfig(root, {}));
    expect(error.message).toMatch(/invalid YAML/);
    expect(error.file).toBe('govflow.config.yaml');
    // The yaml library reports an unclosed flow sequence where it fails: the next key.
    expect(error.line).toBe(5);
  });

  it('reports a nested-mapping syntax error at its exact line', () => {
    const root = rootWithConfig(
      ['timezone: UTC', 'limits:', '  max_steps: 5', '  max_fan_out: 2: 3', 'intake:', '  concurrency: 1', ''].join(
        '\n',
      ),
    );
    const error = configError(() => loadConfig(root, {}));
    expect(error.message).toMatch(/invalid YAML/);
    expect(error.line).toBe(4);
  });

  it('reports a duplicate key with its line', () => {
    const root = rootWithConfig(
      ['timezone: UTC', 'provider:', '  kind: openai', 'timezone: Asia/Singapore', ''].join('\n'),
    );
    const error = configError(() => loadConfig(root, {}));
    expect(error.message).toMatch(/invalid YAML/);
    expect(error.line).toBe(4);
  });
});
