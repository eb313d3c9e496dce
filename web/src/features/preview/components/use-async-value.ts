import { useEffect, useState } from 'react';

/**
 * The value a viewer works out from the file's bytes (text decoded, an email parsed, a document converted),
 * undefined until ready; a failure goes to onError. Runs again only when `input` changes.
 */
export function useAsyncValue<I, T>(input: I, work: (input: I) => Promise<T>, onError: (error: unknown) => void): T | undefined {
  const [state, setState] = useState<{ input: I; value: T } | undefined>(undefined);
  useEffect(() => {
    let live = true;
    work(input).then(
      (value) => live && setState({ input, value }),
      (error: unknown) => live && onError(error),
    );
    return () => {
      live = false;
    };
    // work and onError are the caller's functions; the value depends on the input only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [input]);
  return state && state.input === input ? state.value : undefined;
}
