import { PAGE_READY_MESSAGE, readClickMessage, type SinoClick } from "./click-message.js";

/**
 * Listens for the notification clicks Sino's service worker hands to this page, then tells the
 * worker the page is listening (`sino:page-ready`): a window the worker just opened gets its click
 * only after that, so no click is posted before anyone listens. Returns the function that stops listening.
 */
export function listenForClicks(container: ServiceWorkerContainer, onClick: (click: SinoClick) => void, logger: Pick<Console, "warn">): () => void {
  const listener = (event: MessageEvent): void => {
    const click = readClickMessage(event.data);
    if (click) onClick(click);
  };
  container.addEventListener("message", listener);
  // addEventListener (unlike onmessage) does not open the client message queue: open it now rather
  // than at the end of parsing, so a click queued for this page is not held back.
  container.startMessages?.();
  container.ready.then(
    (registration) => registration.active?.postMessage({ type: PAGE_READY_MESSAGE }),
    (error: unknown) => logger.warn("Sino: the service worker is not ready; notification clicks will not reach this page", error),
  );
  return () => container.removeEventListener("message", listener);
}
