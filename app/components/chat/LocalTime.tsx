import { useEffect, useState } from "react";

function format(at: number, lng: string, timeZone?: string) {
  const d = new Date(at * 1000);
  const today = new Date().toDateString() === d.toDateString();
  return new Intl.DateTimeFormat(
    lng,
    today
      ? { hour: "2-digit", minute: "2-digit", timeZone }
      : { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone },
  ).format(d);
}

/** A message time: rendered in UTC on the server, then in the browser's own time zone. */
export function LocalTime({ at, lng }: { at: number; lng: string }) {
  const [text, setText] = useState(() => format(at, lng, "UTC"));
  useEffect(() => {
    setText(format(at, lng));
  }, [at, lng]);
  return (
    <time className="chat-time" dateTime={new Date(at * 1000).toISOString()}>
      {text}
    </time>
  );
}
