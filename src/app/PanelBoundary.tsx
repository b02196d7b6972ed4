/**
 * An error boundary around one panel of the page. A bug that throws while a panel renders used to unmount the
 * whole app — a blank page, whatever the user had typed or opened gone until a reload (issue 41). Behind this
 * boundary only that panel stops: it says so in a sentence and offers "Reload this panel", which renders it
 * afresh; the other panels, the open tree, the documents waiting and everything stored stay as they were.
 *
 * React catches render and effect errors only in class components (`getDerivedStateFromError`); event
 * handlers and promises report their own failures as notices. `resetKey` renders the panel afresh when what
 * it shows changes (another tree opened), so a panel that failed on one tree works on the next; with
 * `keepWhenWorking` a panel that has not failed keeps its state instead (the Ask panel: a question typed while a
 * build finishes must survive the new tree opening).
 */
import { Component, Fragment, type ErrorInfo, type ReactNode } from 'react';
import { clearPanelFault, PanelFault } from './panel-faults';

/** Props of `PanelBoundary`. */
export interface PanelBoundaryProps {
  /** The panel's name as a person reads it ("tree view", "Ask panel"), in the sentence. */
  name: string;
  /** When it changes, a failed panel is rendered afresh. */
  resetKey?: unknown;
  /** When `resetKey` changes, render afresh only a failed panel; a working one keeps what the user typed. */
  keepWhenWorking?: boolean;
  children: ReactNode;
}

interface State {
  error?: Error;
  /** Renders the children afresh (a new React key) after "Reload this panel". */
  generation: number;
  resetKey?: unknown;
}

/** The boundary; see the module comment. */
export class PanelBoundary extends Component<PanelBoundaryProps, State> {
  override state: State = { generation: 0, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: PanelBoundaryProps, state: State): Partial<State> | null {
    if (props.resetKey === state.resetKey) return null;
    if (props.keepWhenWorking && !state.error) return { resetKey: props.resetKey };
    return { resetKey: props.resetKey, error: undefined, generation: state.generation + 1 };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    // For the person who reports the bug: the console keeps the component stack. Nothing is sent anywhere.
    console.error(`The ${this.props.name} stopped:`, error, info.componentStack);
  }

  private reload = () => {
    clearPanelFault(this.props.name);
    this.setState((s) => ({ error: undefined, generation: s.generation + 1 }));
  };

  override render(): ReactNode {
    const { error, generation } = this.state;
    if (error) {
      return (
        <div className="panel-error" role="alert" data-panel={this.props.name}>
          <p>
            The {this.props.name} stopped because of a bug in Aerie ({error.message || error.name}). The rest
            of the page and everything you built, typed or stored are unaffected.
          </p>
          <button type="button" onClick={this.reload}>
            Reload this panel
          </button>
        </div>
      );
    }
    return (
      <Fragment key={generation}>
        <PanelFault panel={this.props.name} />
        {this.props.children}
      </Fragment>
    );
  }
}
