import { afterEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildDistOnce } from '../daemon/build-once.js';
import { loadConfig } from '../../src/config/config-loader.js';
import { ConfigError } from '../../src/errors.js';
import { parseOtlpHeaders, resolveTelemetrySettings, tracesUrlOf } from '../../src/telemetry/telemetry-settings.js';
import { REPOSITORY_ROOT, exampleRoot, removeTempDirs } from '../pipeline/pipeline-test-helpers.js';

afterEach(removeTempDirs);

const defaults = { telemetry: { otlp_endpoint: null, capture_content: false, service_name: 'govflow' } };

describe('telemetry settings', () => {
  it('is off with no endpoint, or with OTEL_SDK_DISABLED=true', () => {
    expect(resolveTelemetrySettings(defaults, {})).toBeNull();
    expect(
      resolveTelemetrySettings(
        { telemetry: { ...defaults.telemetry, otlp_endpoint: 'http://127.0.0.1:4318' } },
        { OTEL_SDK_DISABLED: 'true' },
      ),
    ).toBeNull();
  });

  it('prefers the config key, then the traces variable as written, then the base variable plus /v1/traces', () => {
    const env = {
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom/path',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318/',
    };
    const fromConfig = resolveTelemetrySettings(
      { telemetry: { ...defaults.telemetry, otlp_endpoint: 'http://collector:4318', capture_content: true } },
      env,
    )!;
    expect(fromConfig).toMatchObject({
      tracesUrl: 'http://collector:4318/v1/traces',
      source: 'telemetry.otlp_endpoint',
      captureContent: true,
    });
    expect(resolveTelemetrySettings(defaults, env)).toMatchObject({
      tracesUrl: 'http://traces:4318/custom/path',
      source: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    });
    expect(resolveTelemetrySettings(defaults, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://base:4318/' })).toMatchObject({
      tracesUrl: 'http://base:4318/v1/traces',
    });
    expect(tracesUrlOf('https://collector.example/v1/traces')).toBe('https://collector.example/v1/traces');
  });

  it('rejects a malformed endpoint or header list with a message that says how to write it', () => {
    expect(() => resolveTelemetrySettings(defaults, { OTEL_EXPORTER_OTLP_ENDPOINT: 'grpc://x:4317' })).toThrow(
      /http:\/\/ or https:\/\//,
    );
    expect(() => resolveTelemetrySettings(defaults, { OTEL_EXPORTER_OTLP_ENDPOINT: 'not a url' })).toThrow(ConfigError);
    expect(() => parseOtlpHeaders('novalue', 'OTEL_EXPORTER_OTLP_HEADERS')).toThrow(/key1=value1,key2=value2/);
    expect(parseOtlpHeaders('a=1, b=x%3Dy', 'V')).toEqual({ a: '1', b: 'x=y' });
  });

  it('config: telemetry keys are validated and defaulted once', () => {
    const root = exampleRoot('telemetry: { otlp_endpoint: "http://127.0.0.1:4318", capture_content: true }\n');
    expect(loadConfig(root, {}).telemetry).toEqual({
      otlp_endpoint: 'http://127.0.0.1:4318',
      capture_content: true,
      service_name: 'govflow',
    });
    expect(loadConfig(exampleRoot(), {}).telemetry).toEqual(defaults.telemetry);
    expect(() => loadConfig(exampleRoot('telemetry: { otlp_endpoint: "127.0.0.1:4318" }\n'), {})).toThrow(
      /otlp_endpoint/,
    );
    expect(() => loadConfig(exampleRoot('telemetry: { capture: true }\n'), {})).toThrow(ConfigError);
  });

  it('loads no OpenTelemetry SDK code in a process whose tracing is off', async () => {
    await buildDistOnce();
    const root = exampleRoot();
    const script = `
      import { createRequire } from 'node:module';
      const { openRuntime } = await import(${JSON.stringify(pathToFileURL(path.join(REPOSITORY_ROOT, 'dist/daemon/runtime.js')).href)});
      for (const on of [false, true]) {
        const runtime = await openRuntime(process.argv[1], { env: on ? { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' } : {} });
        const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => /@opentelemetry[\\\\/](sdk-trace|exporter-trace)/.test(file));
        console.log(on ? 'on' : 'off', loaded.length);
        await runtime.close();
      }`;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script, root], {
      cwd: REPOSITORY_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr, child.stderr).not.toMatch(/Error/);
    expect(child.stdout).toMatch(/^off 0$/m);
    expect(child.stdout).toMatch(/^on [1-9]\d*$/m);
  }, 180_000);
});
