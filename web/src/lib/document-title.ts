import { useEffect } from 'react';

const PRODUCT_NAME = 'Strongroom';

/** Sets document.title to '{title} · Strongroom' while the page is shown. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
