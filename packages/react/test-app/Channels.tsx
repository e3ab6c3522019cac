import { useEffect, useState } from "react";
import { useSino } from "@sino/react";
import type { SinoChannelChoice } from "@sino/react";

/** A custom channel picker on `useSino()`: the channels Sino offers, as checkboxes, while on. */
export function Channels() {
  const { state, channels, loadChannels, setChannels } = useSino();
  const [choice, setChoice] = useState<SinoChannelChoice | null>(null);
  const [saved, setSaved] = useState(false);
  // The visitor's pick shows at once; the server's answer then replaces it.
  const [picked, setPicked] = useState<readonly string[] | null>(null);

  useEffect(() => {
    if (state !== "on") return;
    let current = true;
    loadChannels().then(
      (loaded) => {
        if (current) setChoice(loaded);
      },
      (error: unknown) => console.error("Could not load the channels", error),
    );
    return () => {
      current = false;
    };
  }, [state, loadChannels]);

  if (state !== "on" || !choice) return null;
  const chosen = new Set(picked ?? channels ?? []);
  const toggle = (slug: string, checked: boolean) => {
    const next = checked ? [...chosen, slug] : [...chosen].filter((s) => s !== slug);
    setSaved(false);
    setPicked(next);
    setChannels(next).then(
      (stored) => {
        setPicked(stored);
        setSaved(true);
      },
      (error: unknown) => {
        setPicked(null);
        console.error("Could not save the channels", error);
      },
    );
  };
  return (
    <fieldset>
      <legend>Canais</legend>
      {choice.available.map((channel) => (
        <label key={channel.slug} style={{ display: "block" }}>
          <input type="checkbox" checked={chosen.has(channel.slug)} onChange={(event) => toggle(channel.slug, event.target.checked)} />{" "}
          {channel.name}
        </label>
      ))}
      <p role="status">{saved ? "Canais salvos." : ""}</p>
    </fieldset>
  );
}
