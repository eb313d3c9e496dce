import { useRef } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { PREVIEW_MIN_PX, PreviewResizeHandle, previewWidthKey, usePreviewWidth } from './preview-width';

/** A panel at the default width (400 px as laid out) with its handle, as the workspace page has it. */
function Panel({ userId }: { userId: number }) {
  const [width, setWidth] = usePreviewWidth(userId);
  const ref = useRef<HTMLElement>(null);
  return (
    <aside ref={ref} data-width={width ?? 'default'}>
      <PreviewResizeHandle panel={ref} width={width} onWidth={setWidth} />
    </aside>
  );
}

const panel = () => screen.getByRole('complementary');
const handle = () => screen.getByRole('separator', { name: 'Resize preview panel' });

beforeEach(() => {
  localStorage.clear();
  window.innerWidth = 1440;
  Element.prototype.getBoundingClientRect = function () {
    return { width: 400, height: 600, top: 0, left: 0, right: 400, bottom: 600, x: 0, y: 0, toJSON: () => ({}) } as DOMRect;
  };
});

describe('the preview panel width', () => {
  it('widens with Left and narrows with Right from the width on screen, and keeps it for that person only', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<Panel userId={7} />);
    expect(panel().dataset.width).toBe('default');
    expect(handle()).toHaveAttribute('aria-valuenow', '400');
    handle().focus();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(panel().dataset.width).toBe('464');
    await user.keyboard('{ArrowRight}');
    expect(panel().dataset.width).toBe('432');
    expect(handle()).toHaveAttribute('aria-valuenow', '432');
    await waitFor(() => expect(localStorage.getItem(previewWidthKey(7))).toBe('432'));
    unmount();

    // The same person finds it as they left it; another person has the default.
    render(<Panel userId={7} />);
    expect(panel().dataset.width).toBe('432');
    render(<Panel userId={8} />);
    expect(screen.getAllByRole('complementary')[1]!.dataset.width).toBe('default');
  });

  it('stays between the narrowest useful width and 60% of the window; Enter and a double click give back the default', async () => {
    const user = userEvent.setup();
    render(<Panel userId={7} />);
    handle().focus();
    await user.keyboard('{Home}');
    expect(panel().dataset.width).toBe(String(Math.floor(1440 * 0.6)));
    await user.keyboard('{ArrowLeft}');
    expect(panel().dataset.width).toBe(String(Math.floor(1440 * 0.6)));
    await user.keyboard('{End}{ArrowRight}{PageDown}');
    expect(panel().dataset.width).toBe(String(PREVIEW_MIN_PX));
    await user.keyboard('{Enter}');
    expect(panel().dataset.width).toBe('default');
    await waitFor(() => expect(localStorage.getItem(previewWidthKey(7))).toBeNull());
    await user.keyboard('{PageUp}');
    expect(panel().dataset.width).toBe(String(400 + 160));
    fireEvent.doubleClick(handle());
    expect(panel().dataset.width).toBe('default');
  });

  it('follows a drag: the pointer moving left widens the panel', () => {
    render(<Panel userId={7} />);
    const h = handle();
    h.setPointerCapture = () => undefined;
    fireEvent.pointerDown(h, { button: 0, clientX: 1000, pointerId: 1 });
    fireEvent.pointerMove(h, { clientX: 900, pointerId: 1 });
    expect(panel().dataset.width).toBe('500');
    fireEvent.pointerMove(h, { clientX: 1100, pointerId: 1 });
    expect(panel().dataset.width).toBe(String(PREVIEW_MIN_PX));
    fireEvent.pointerUp(h, { pointerId: 1 });
    fireEvent.pointerMove(h, { clientX: 500, pointerId: 1 });
    expect(panel().dataset.width).toBe(String(PREVIEW_MIN_PX));
  });
});
