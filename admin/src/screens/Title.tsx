import { type ReactNode, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/**
 * A screen's heading. After a navigation inside the app it takes the focus, as a page load puts a
 * reader at the top of the new page; on the first load the focus stays at the document's start.
 */
export function Title({ children, id }: { children: ReactNode; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    if (key !== 'default') {
      ref.current?.focus();
    }
  }, [key]);
  return (
    <h1 id={id} ref={ref} tabIndex={-1}>
      {children}
    </h1>
  );
}
