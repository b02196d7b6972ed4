/**
 * What the page runs beside its panels: the service worker (told when the page is busy or untouched), the
 * connectivity notices, the install offer, the storage overview of the Settings dialog, and the warming of the
 * model the next step needs.
 */
import type { TreeSummary } from '../../storage';
import type { AppSettings } from '../settings/app-settings';
import { embeddingChoiceOf } from './request';
import { useConnectivity } from './useConnectivity';
import { useInstallPrompt } from './useInstallPrompt';
import { modelToWarm, useBuildWorkerWarmup, useModelWarmup } from './useModelWarmup';
import type { useNotices } from './useNotices';
import { useServiceWorker, type Busy } from './useServiceWorker';
import { useStorageOverview } from './useStorageOverview';

/** The page's state that the services follow. */
export interface ShellServicesInput {
  notify: ReturnType<typeof useNotices>['notify'];
  dismiss: ReturnType<typeof useNotices>['dismiss'];
  settings: AppSettings;
  settingsReady: boolean;
  settingsOpen: boolean;
  trees: readonly TreeSummary[];
  /** A build runs in this tab. */
  building: boolean;
  /** What the page is busy with (busyOf), so an update waits for it. */
  busy: Busy | undefined;
  /** Nothing begun on the page yet (no build, no document waiting, no tree open, no dialog). */
  pristine: boolean;
  documentsWaiting: boolean;
  /** The open tree's question model (questionModelOf), asked only once the stored settings are read. */
  questionModel: () => Parameters<typeof modelToWarm>[0]['question'];
}

/**
 * What the page is busy with, most important first. A build in another tab counts too: the new version takes over
 * every tab, and may upgrade the storage under it. Pure.
 */
export function busyOf(state: {
  building: boolean;
  buildsRunning: number;
  answering: boolean;
  evaluating: boolean;
}): Busy | undefined {
  if (state.building || state.buildsRunning > 0) return 'build';
  if (state.answering) return 'answer';
  return state.evaluating ? 'evaluation' : undefined;
}

/** Runs the page's services; returns the install offer and the storage overview. */
export function useShellServices(input: ShellServicesInput) {
  const { notify, dismiss, settings, settingsReady, building, documentsWaiting } = input;
  useServiceWorker({ notify, busy: input.busy, pristine: input.pristine });
  useConnectivity(settings, notify, dismiss);
  const install = useInstallPrompt();
  const storage = useStorageOverview(input.settingsOpen, input.trees, notify);
  // Never the default model of settings not yet read: the user's own choice is warmed.
  useModelWarmup(
    settingsReady
      ? modelToWarm({
          building,
          documentsWaiting,
          build: embeddingChoiceOf(settings),
          question: input.questionModel(),
        })
      : undefined,
  );
  useBuildWorkerWarmup(documentsWaiting && !building);
  return { install, storage };
}
