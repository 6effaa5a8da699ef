/** Tool names on the wire, shared by the AI SDK adapter and replay (which must not load the SDK). */
import type { LlmRequest, LlmToolOffer } from './provider.js';

/**
 * Tool names as the provider APIs accept them (`[A-Za-z0-9_-]{1,64}`): `mcp:docs/search` is
 * offered as `mcp__docs__search`. Names that would collide get a numeric suffix.
 */
export interface ToolNameTable {
  toWire: Map<string, string>;
  fromWire: Map<string, string>;
}

export function toolNameTable(offers: readonly LlmToolOffer[], turns: LlmRequest['toolTurns'] = []): ToolNameTable {
  const toWire = new Map<string, string>();
  const fromWire = new Map<string, string>();
  const names = [...offers.map((offer) => offer.name), ...turns.flatMap((turn) => turn.calls.map((call) => call.name))];
  for (const name of names) {
    if (toWire.has(name)) continue;
    const base =
      name
        .replace(/^mcp:/, 'mcp__')
        .replace(/\//g, '__')
        .replace(/[^A-Za-z0-9_-]/g, '_')
        .slice(0, 60) || 'tool';
    let wire = base;
    for (let index = 2; fromWire.has(wire); index++) wire = `${base}_${index}`;
    toWire.set(name, wire);
    fromWire.set(wire, name);
  }
  return { toWire, fromWire };
}
