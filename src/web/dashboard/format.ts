/** Dates as operators read them: pt-BR, in the configured zone (not the laptop's). */
export function formatDateTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short", timeZone }).format(new Date(iso));
}

export function formatNumber(value: number): string {
  return new Intl.NumberFormat("pt-BR").format(value);
}

/** The zone's name in pt-BR ("Horário Padrão de Brasília"), for the schedule's hint. */
export function timeZoneName(timeZone: string, at: number): string {
  const part = new Intl.DateTimeFormat("pt-BR", { timeZone, timeZoneName: "long" }).formatToParts(at).find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}
