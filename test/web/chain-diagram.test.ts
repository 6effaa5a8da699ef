import { describe, expect, it } from 'vitest';
import { renderChainDiagram } from '../../src/web/chain-diagram.js';

describe('chain diagram', () => {
  it('draws the chain as SVG with one linked box per message and plan tasks side by side, escaping names', () => {
    const svg = renderChainDiagram(
      [
        { sequence: 1, agent: 'objective_agent', status: 'success', taskId: null },
        { sequence: 2, agent: 'summarizer_agent', status: 'success', taskId: 't1' },
        { sequence: 3, agent: '<script>', status: 'failed', taskId: 't2' },
      ],
      (sequence) => `#m-${sequence}`,
    );
    expect(svg.match(/<a href="#m-\d"/g)).toHaveLength(3);
    expect(svg.match(/<line /g)).toHaveLength(2);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&#60;script&#62;');
  });
});
