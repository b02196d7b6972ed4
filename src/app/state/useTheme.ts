/** Applies the chosen colour theme to the page (`data-theme` on <html>; "system" follows the OS). */
import { useEffect } from 'react';

export function useTheme(theme: 'system' | 'light' | 'dark'): void {
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
  }, [theme]);
}
