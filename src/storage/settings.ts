/**
 * Settings: a key → value store typed by `SettingsMap` (endpoints with their API keys, models, parameters,
 * theme). Settings stay in this browser: nothing here is ever exported, and no error message quotes a value.
 */
import { withoutCause } from './errors';
import type { AerieDb, SettingsMap } from './schema';
import { forEachRequest, runTransaction } from './transaction';

/** The stored value of a setting, or undefined when it was never set. */
export function getSetting<K extends keyof SettingsMap>(
  db: AerieDb,
  key: K,
): Promise<SettingsMap[K] | undefined> {
  return runTransaction(db, ['settings'], 'readonly', `read the setting "${key}"`, async (tx) => {
    return (await tx.objectStore('settings').get(key)) as SettingsMap[K] | undefined;
  }).catch((error: unknown) => {
    throw withoutCause(error);
  });
}

/** Stores a setting (structured clone: plain data only). */
export function setSetting<K extends keyof SettingsMap>(
  db: AerieDb,
  key: K,
  value: SettingsMap[K],
): Promise<void> {
  return runTransaction(db, ['settings'], 'readwrite', `save the setting "${key}"`, async (tx) => {
    await tx.objectStore('settings').put(value, key);
  }).catch((error: unknown) => {
    throw withoutCause(error);
  });
}

/**
 * Stores several settings in one transaction: all of them or, on any failure (a full quota), none, so settings
 * that belong together (the app's settings and the endpoints a resume takes its keys from) never disagree.
 */
export function setSettings(db: AerieDb, values: Partial<SettingsMap>): Promise<void> {
  const keys = Object.keys(values) as (keyof SettingsMap)[];
  return runTransaction(db, ['settings'], 'readwrite', 'save the settings', async (tx) => {
    await forEachRequest(keys, (key) => tx.objectStore('settings').put(values[key], key));
  }).catch((error: unknown) => {
    throw withoutCause(error);
  });
}

/** Removes a setting. */
export function deleteSetting(db: AerieDb, key: keyof SettingsMap): Promise<void> {
  return runTransaction(db, ['settings'], 'readwrite', `remove the setting "${key}"`, async (tx) => {
    await tx.objectStore('settings').delete(key);
  });
}
