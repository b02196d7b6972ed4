/** The Settings dialog in its panel boundary, with the storage section (kept storage, downloaded models). */
import { PanelBoundary } from '../PanelBoundary';
import type { AppSettings } from '../settings/app-settings';
import { SettingsDialog } from '../settings/SettingsDialog';
import { StorageSection } from '../settings/StorageSection';
import type { useLibraryActions } from '../state/useLibraryActions';
import type { useShellServices } from '../state/useShellServices';

/** What the dialog shows and what its controls do. */
export interface SettingsPanelProps {
  open: boolean;
  settings: AppSettings;
  onSave: (settings: AppSettings) => Promise<void> | void;
  onClose: () => void;
  actions: ReturnType<typeof useLibraryActions>;
  storage: ReturnType<typeof useShellServices>['storage'];
}

/** The Settings dialog. */
export function SettingsPanel({ open, settings, onSave, onClose, actions, storage }: SettingsPanelProps) {
  return (
    <PanelBoundary name="Settings dialog">
      <SettingsDialog
        open={open}
        settings={settings}
        onSave={onSave}
        onClose={onClose}
        testConnection={actions.testConnection}
        storage={
          <StorageSection
            overview={storage.overview}
            onKeep={() => void actions.persist().then(storage.refresh)}
            onDeleteModel={storage.deleteModel}
          />
        }
      />
    </PanelBoundary>
  );
}
