/**
 * How far across the book each mode's selected passages reach: per mode a strip the width of the text (the
 * tree's documents end to end), a tick where each selected leaf sits and a band over each selected summary's
 * stretch, and the same in words ("24 passages from 3% to 96% of the text, in 8 of its 10 tenths"), which is
 * what screen readers get; the strip is decoration drawn from the same numbers (reach.ts).
 */
import { useMemo, type CSSProperties } from 'react';
import type { RaptorTree } from '../../core/types';
import { MODE_LABELS, modeColorVar, type ModeSelections } from '../modes';
import { reachOf, reachText, REACH_PARTS } from './reach';
import './reach.css';

/** Props of `ReachStrip`. */
export interface ReachStripProps {
  tree: Pick<RaptorTree, 'nodes' | 'documents'>;
  selections: ModeSelections;
}

const PERCENT = 100;

/** The strips; nothing when no mode selected anything. */
export function ReachStrip({ tree, selections }: ReachStripProps) {
  const reaches = useMemo(() => reachOf(tree, selections), [tree, selections]);
  if (reaches.length === 0) return null;
  const pct = (x: number) => `${(x * PERCENT).toFixed(2)}%`;
  return (
    <section className="reach" aria-labelledby="reach-heading">
      <h3 id="reach-heading" className="reach-heading">
        Where in the text the passages are
      </h3>
      <ul className="reach-list">
        {reaches.map((reach) => (
          <li key={reach.mode} className="reach-row" data-mode={reach.mode} data-parts={reach.parts}>
            <span className="reach-mode">
              <span className="mode-swatch" style={{ background: modeColorVar(reach.mode) }} />
              {MODE_LABELS[reach.mode]}
            </span>
            <span
              className="reach-track"
              aria-hidden="true"
              style={
                { '--reach-mode': modeColorVar(reach.mode), '--reach-parts': REACH_PARTS } as CSSProperties
              }
            >
              {reach.marks.map((m) =>
                m.summary ? (
                  <span
                    key={m.id}
                    className="reach-band"
                    style={{ left: pct(m.from), width: pct(Math.max(0, m.to - m.from)) }}
                  />
                ) : (
                  <span key={m.id} className="reach-tick" style={{ left: pct((m.from + m.to) / 2) }} />
                ),
              )}
            </span>
            <span className="reach-text">{reachText(reach)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
