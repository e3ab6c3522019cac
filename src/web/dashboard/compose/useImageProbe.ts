import { useEffect, useState } from "react";

/** Whether an image address loads in this browser: "none" for no address, "loading" while it is tried. */
export type ImageProbe = "none" | "loading" | "loaded" | "broken";

/** How long typing must pause before an address is tried, so a half-typed one is not fetched. */
const SETTLE_MS = 400;

/**
 * Tries `url` as an image, as the notification's browser will: a 404, a page that is not an image
 * or a host that does not answer ends "broken", so compose can warn instead of sending a
 * notification whose icon silently falls back (or whose image is silently missing).
 */
export function useImageProbe(url: string): ImageProbe {
  const [result, setResult] = useState<{ url: string; probe: "loaded" | "broken" } | null>(null);
  useEffect(() => {
    if (url === "") return;
    let live = true;
    const image = new Image();
    image.onload = () => live && setResult({ url, probe: "loaded" });
    image.onerror = () => live && setResult({ url, probe: "broken" });
    const timer = setTimeout(() => {
      image.src = url;
    }, SETTLE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
      image.onload = null;
      image.onerror = null;
    };
  }, [url]);
  if (url === "") return "none";
  return result?.url === url ? result.probe : "loading";
}
