import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { router } from './App';
import './styles.css';

// React Aria adds a <style> element (touch-action for pressable elements) unless an element with
// this id exists. The app's policy allows no inline style: the same rule is in styles.css, and this
// marker stops the injection.
const marker = document.createElement('meta');
marker.id = 'react-aria-pressable-style';
document.head.append(marker);

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
