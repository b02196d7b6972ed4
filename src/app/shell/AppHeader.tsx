/** The page's header: the brand, the open tree's title, the theme picker, installing and the Settings button. */
import type { AppSettings } from '../settings/app-settings';

/** What the header shows and what its controls do. */
export interface AppHeaderProps {
  /** The open tree's title, when a tree is open. */
  title: string | undefined;
  settings: AppSettings;
  settingsReady: boolean;
  /** Saves the settings with another theme. */
  onTheme: (theme: AppSettings['theme']) => void;
  /** Installs the app, when the browser offers it. */
  install: (() => void) | undefined;
  settingsOpen: boolean;
  onOpenSettings: () => void;
}

/** The page's header. */
export function AppHeader({
  title,
  settings,
  settingsReady,
  onTheme,
  install,
  settingsOpen,
  onOpenSettings,
}: AppHeaderProps) {
  return (
    <header className="app-header">
      <div className="brand">
        <svg aria-hidden="true" viewBox="0 0 32 32" width="28" height="28">
          <rect width="32" height="32" rx="6" fill="var(--accent, #1f4e79)" />
          <path d="M16 5 L27 25 H5 Z" fill="none" stroke="#fff" strokeWidth="2.5" strokeLinejoin="round" />
          <circle cx="16" cy="5" r="2.5" fill="#f5b942" />
        </svg>
        <h1>Aerie</h1>
        <span className="tagline">RAPTOR tree retrieval, entirely in your browser</span>
      </div>
      <div className="header-actions">
        {title !== undefined && (
          <span className="open-title" title={title}>
            {title}
          </span>
        )}
        <label className="theme-picker">
          <span>Theme</span>
          <select
            value={settings.theme}
            disabled={!settingsReady}
            onChange={(e) => onTheme(e.target.value as AppSettings['theme'])}
          >
            <option value="system">System</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        {install && (
          <button type="button" onClick={install}>
            Install Aerie
          </button>
        )}
        {/* Clicked before the stored settings are read, the dialog opens once they are (never on defaults). */}
        <button type="button" aria-busy={settingsOpen && !settingsReady} onClick={onOpenSettings}>
          Settings
        </button>
      </div>
    </header>
  );
}
