/** The page header: title, the catalog drawer's button (phone) and "Copy link". */
import { useState } from 'react';

/** Props of {@link AppHeader}. */
export interface AppHeaderProps {
  /** The catalog drawer is open (phone layout). */
  drawer: boolean;
  /** Opens or closes the drawer; opening focuses its search box. */
  setDrawer: (open: boolean) => void;
}

/** Copies the page's link (the whole view is in it); without a clipboard, shows it in a prompt. */
async function copyLink(): Promise<void> {
  if (!navigator.clipboard) throw new Error('no clipboard');
  await navigator.clipboard.writeText(location.href);
}

/** The header bar. */
export function AppHeader({ drawer, setDrawer }: AppHeaderProps) {
  const [copied, setCopied] = useState(false);
  const toggle = () => {
    setDrawer(!drawer);
    if (!drawer) setTimeout(() => document.getElementById('catalog-drawer')?.querySelector<HTMLInputElement>('input')?.focus(), 0);
  };
  const copy = () => {
    copyLink().then(() => { setCopied(true); setTimeout(() => setCopied(false), 2000); }, () => { window.prompt('Copy this link:', location.href); });
  };
  return (
    <header className="top">
      <h1>indapi3 <span className="sub">indicators for Africa south of the Sahara</span></h1>
      <div className="row">
        <button type="button" className="ghost phone-only" aria-expanded={drawer} aria-controls="catalog-drawer" onClick={toggle}>Catalog</button>
        <span className="copied" role="status" aria-live="polite">{copied ? 'Link copied' : ''}</span>
        <button type="button" className="ghost" title="Copy a link to this view" onClick={copy}>{copied ? 'Copied' : 'Copy link'}</button>
      </div>
    </header>
  );
}
