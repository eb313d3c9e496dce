import { useEffect, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { getDocument, GlobalWorkerOptions, TextLayer, type PDFDocumentProxy } from 'pdfjs-dist';
// The worker is bundled with the app (no CDN): Vite emits it as an asset and answers its URL.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { Button } from '@/components/ui/button';
import { PreviewLoading } from './preview-loading';
import type { ViewerProps } from './viewer-props';
import './pdf-text-layer.css';

GlobalWorkerOptions.workerSrc = workerUrl;

/**
 * The PDF opened from its bytes, null until ready; closed (its worker's copy freed) when the bytes change or the
 * viewer goes. Eval stays off: the app's CSP forbids it, and a document should not need it.
 */
function usePdf(blob: Blob, onError: (e: unknown) => void): PDFDocumentProxy | null {
  const [opened, setOpened] = useState<{ blob: Blob; doc: PDFDocumentProxy } | null>(null);
  useEffect(() => {
    let live = true;
    let task: ReturnType<typeof getDocument> | null = null;
    blob
      .arrayBuffer()
      .then((bytes) => {
        if (!live) return null;
        task = getDocument({ data: new Uint8Array(bytes), isEvalSupported: false });
        return task.promise;
      })
      .then(
        (doc) => live && doc && setOpened({ blob, doc }),
        (err: unknown) => live && onError(err),
      );
    return () => {
      live = false;
      void task?.destroy();
    };
  }, [blob, onError]);
  return opened && opened.blob === blob ? opened.doc : null;
}

type PageProps = { doc: PDFDocumentProxy; number: number; width: number; eager: boolean; onError: (e: unknown) => void };

/** One page: drawn on a canvas with its text layer above, once it comes near the visible part of the panel. */
function PdfPage({ doc, number, width, eager, onError }: PageProps) {
  const box = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(eager);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);

  useEffect(() => {
    if (visible || !box.current) return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setVisible(true), {
      rootMargin: '400px 0px',
    });
    observer.observe(box.current);
    return () => observer.disconnect();
  }, [visible]);

  useEffect(() => {
    if (!visible || !box.current || width <= 0) return;
    const container = box.current;
    let cancelled = false;
    let cancel = () => {};
    void (async () => {
      const page = await doc.getPage(number);
      const scale = width / page.getViewport({ scale: 1 }).width;
      const viewport = page.getViewport({ scale });
      if (cancelled) return;
      setSize({ w: viewport.width, h: viewport.height });
      const ratio = window.devicePixelRatio || 1;
      const canvas = document.createElement('canvas');
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${viewport.width}px`;
      canvas.style.height = `${viewport.height}px`;
      canvas.setAttribute('aria-hidden', 'true');
      const text = document.createElement('div');
      text.className = 'textLayer';
      container.replaceChildren(canvas, text);
      container.style.setProperty('--total-scale-factor', String(scale));
      const render = page.render({ canvas, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      const layer = new TextLayer({ textContentSource: page.streamTextContent(), container: text, viewport });
      cancel = () => {
        render.cancel();
        layer.cancel();
      };
      await Promise.all([render.promise, layer.render()]);
    })().catch((err: unknown) => {
      // A render cancelled because the panel closed or resized is not a failure.
      if (!cancelled && !(err instanceof Error && err.name === 'RenderingCancelledException')) onError(err);
    });
    return () => {
      cancelled = true;
      cancel();
    };
  }, [doc, number, width, visible, onError]);

  return (
    <div
      ref={box}
      data-page={number}
      aria-label={`Page ${number}`}
      role="region"
      className="pdf-page relative mx-auto bg-white shadow-sm"
      style={{ width: size?.w ?? width, height: size?.h ?? width * 1.294 }}
    />
  );
}

/**
 * Brings a page to the top of the viewer's own scrolling area only: the page around the panel stays where it is.
 * Answers whether the page was there to show.
 */
function showPage(scroller: HTMLElement, page: number): boolean {
  const el = scroller.querySelector(`[data-page="${page}"]`);
  if (!el) return false;
  scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
  return true;
}

/**
 * A PDF rendered in the page with pdf.js: the first page as soon as it is ready, the others as they are scrolled
 * to, or reached with the page buttons; the text of each page can be selected and copied.
 */
export default function PdfViewer({ preview, onError, page }: ViewerProps) {
  const doc = usePdf(preview.blob, onError);
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [current, setCurrent] = useState(1);
  // The page asked for (a search hit's) is brought into view once, when the pages are laid out, and held there while
  // the pages above it are drawn and change height, until the reader scrolls, touches or presses a key.
  const shownPage = useRef(false);
  const held = useRef<number | null>(null);
  useEffect(() => {
    if (shownPage.current || !doc || width <= 0 || !page || page <= 1) return;
    const target = Math.min(doc.numPages, page);
    if (!scroller.current || !showPage(scroller.current, target)) return;
    shownPage.current = true;
    held.current = target;
    setCurrent(target);
  }, [doc, width, page]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, el.clientWidth - 16));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [doc]);

  if (!doc) return <PreviewLoading />;
  const pages = doc.numPages;
  const release = () => {
    held.current = null;
  };
  const go = (n: number) => {
    release();
    const target = Math.min(pages, Math.max(1, n));
    setCurrent(target);
    if (scroller.current) showPage(scroller.current, target);
  };
  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    if (held.current !== null) {
      showPage(el, held.current);
      return setCurrent(held.current);
    }
    // Scrolled to the end, the last page is the one being read, even when it is too short to reach the top.
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - 2) return setCurrent(pages);
    const top = el.getBoundingClientRect().top;
    const shown = [...el.querySelectorAll<HTMLElement>('[data-page]')].find((p) => p.getBoundingClientRect().bottom > top + 40);
    if (shown) setCurrent(Number(shown.dataset.page));
  };

  return (
    <div className="grid gap-2">
      <div className="flex items-center justify-between gap-2 text-sm">
        <Button variant="outline" size="sm" onClick={() => go(current - 1)} disabled={current <= 1} aria-label="Previous page">
          <ChevronLeft aria-hidden="true" />
        </Button>
        <span aria-live="polite" className="tabular-nums">
          Page {current} of {pages}
        </span>
        <Button variant="outline" size="sm" onClick={() => go(current + 1)} disabled={current >= pages} aria-label="Next page">
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
      <div
        ref={scroller}
        onScroll={onScroll}
        onWheel={release}
        onTouchStart={release}
        onPointerDown={release}
        onKeyDown={release}
        tabIndex={0}
        aria-label={`Pages of ${preview.fileName}`}
        role="region"
        className="grid max-h-[70vh] gap-3 overflow-auto rounded-md border border-border bg-muted/40 p-2"
      >
        {width > 0
          ? Array.from({ length: pages }, (_, i) => (
              <PdfPage key={i + 1} doc={doc} number={i + 1} width={width} eager={i === 0} onError={onError} />
            ))
          : null}
      </div>
    </div>
  );
}
