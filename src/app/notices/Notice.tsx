/**
 * A message to the user — an error, a warning, information or a success — with optional actions and a
 * dismiss button, and a stack that shows several of them at a fixed place over the page so they never move
 * the layout. Errors are role="alert" (announced at once); the others role="status" (announced politely).
 */
import { useId, type ReactNode } from 'react';
import './notices.css';

/** How serious a notice is; decides its colour, icon and ARIA role. */
export type NoticeKind = 'error' | 'warning' | 'info' | 'success';

/** A button a notice offers, e.g. "Retry" or "Open settings". */
export interface NoticeAction {
  label: string;
  onClick(): void;
}

/** Props of `Notice`. */
export interface NoticeProps {
  kind: NoticeKind;
  /** One short sentence or phrase, shown in bold. */
  title: string;
  /** Details under the title (rendered as given; pass text, never markup from documents or LLMs). */
  children?: ReactNode;
  actions?: readonly NoticeAction[];
  /** Shows a "Dismiss" button when given. */
  onDismiss?(): void;
}

/** A glyph per kind, so the kind does not rest on colour alone (hidden from screen readers: the role says it). */
const ICONS: Readonly<Record<NoticeKind, string>> = Object.freeze({
  error: '!',
  warning: '!',
  info: 'i',
  success: '✓',
});

/** Words a screen reader hears before the title. */
const KIND_WORDS: Readonly<Record<NoticeKind, string>> = Object.freeze({
  error: 'Error',
  warning: 'Warning',
  info: 'Note',
  success: 'Done',
});

/** One notice; see the module comment. */
export function Notice({ kind, title, children, actions, onDismiss }: NoticeProps) {
  const titleId = useId();
  return (
    <div
      className={`notice notice-${kind}`}
      role={kind === 'error' ? 'alert' : 'status'}
      aria-labelledby={titleId}
      data-kind={kind}
    >
      <span className="notice-icon" aria-hidden="true">
        {ICONS[kind]}
      </span>
      <div className="notice-body">
        <p className="notice-title" id={titleId}>
          <span className="visually-hidden">{KIND_WORDS[kind]}: </span>
          {title}
        </p>
        {children !== undefined && children !== null && <div className="notice-details">{children}</div>}
        {actions !== undefined && actions.length > 0 && (
          <div className="notice-actions">
            {actions.map((action) => (
              <button key={action.label} type="button" onClick={action.onClick}>
                {action.label}
              </button>
            ))}
          </div>
        )}
      </div>
      {onDismiss !== undefined && (
        <button type="button" className="notice-dismiss" aria-label={`Dismiss: ${title}`} onClick={onDismiss}>
          <span aria-hidden="true">×</span>
        </button>
      )}
    </div>
  );
}

/** A notice in a stack, with an id stable for its lifetime. */
export interface StackedNotice extends Omit<NoticeProps, 'onDismiss'> {
  id: string;
  /** Details as plain text (shown before `children` when both are given). */
  body?: string;
  /** Dismisses this notice; without it the stack's `onDismiss` is called with the id. */
  onDismiss?(): void;
  /** How many times this notice arrived while shown; above 1 the title says "× n". */
  repeats?: number;
}

/** Props of `NoticeStack`. */
export interface NoticeStackProps {
  /** Oldest first; the newest is shown at the bottom, nearest the edge of the page. */
  notices: readonly StackedNotice[];
  /** Dismisses a notice by id; gives every notice a "Dismiss" button. */
  onDismiss?(id: string): void;
  /** Accessible name of the stack's region. Default "Notifications". */
  label?: string;
}

/**
 * The notices, in the page's flow between its header and its panels: they push the panels down rather than
 * cover them (an earlier stack floated over the bottom-right corner, which is where the Ask panel's results
 * are). Side by side on wide screens, one above the other on narrow ones; past a third of the window the
 * region scrolls. The region is always in the page (empty when there is nothing to say), so screen readers
 * have met it before the first notice arrives.
 */
export function NoticeStack({ notices, onDismiss, label = 'Notifications' }: NoticeStackProps) {
  return (
    <section className="notice-stack" aria-label={label}>
      {notices.map((notice) => {
        const dismiss = notice.onDismiss ?? (onDismiss && (() => onDismiss(notice.id)));
        const hasDetails =
          notice.body !== undefined || (notice.children !== undefined && notice.children !== null);
        return (
          <Notice
            key={notice.id}
            kind={notice.kind}
            title={
              notice.repeats !== undefined && notice.repeats > 1
                ? `${notice.title} (× ${notice.repeats})`
                : notice.title
            }
            actions={notice.actions}
            onDismiss={dismiss}
          >
            {hasDetails ? (
              <>
                {notice.body !== undefined && <p>{notice.body}</p>}
                {notice.children}
              </>
            ) : undefined}
          </Notice>
        );
      })}
    </section>
  );
}
