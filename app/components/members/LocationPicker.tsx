import { apiFetch } from "~/lib/api-client";
import { useEffect, useState } from "react";
import { useTranslation } from "~/lib/i18n-react";
import { GEOLOCATION_CACHE_S } from "~/lib/constants";
import { useRegions } from "./useRegions";

type Place = { country: string; region: string; region_name: string; city: string };
const CACHE_KEY = "geolocation_geocode";

/**
 * Country, region and city fields; with JavaScript a button fills them from the browser's position
 * through /api/geocode.php (cached for an hour). Without JavaScript the fields are typed or chosen.
 */
export function LocationPicker({
  countries,
  regions,
  value,
}: {
  countries: { code: string; name: string }[];
  regions: { code: string; name: string }[];
  value: { country: string; region: string; city: string };
}) {
  const { t } = useTranslation("members");
  const [v, setV] = useState(value);
  const [extraRegion, setExtraRegion] = useState<{ code: string; name: string } | null>(null);
  const [pos, setPos] = useState<{ lat: string; lon: string }>({ lat: "", lon: "" });
  const [status, setStatus] = useState<"" | "busy" | "failed">("");
  const [supported, setSupported] = useState(false);
  // The button needs JavaScript and a browser with geolocation, so it appears only after hydration.
  useEffect(() => setSupported("geolocation" in navigator), []);

  const apply = (p: Place, lat: number, lon: number) => {
    setV({ country: p.country, region: p.region, city: p.city });
    if (!regions.some((r) => r.code === p.region)) setExtraRegion({ code: p.region, name: p.region_name });
    setPos({ lat: lat.toFixed(4), lon: lon.toFixed(4) });
    setStatus("");
  };
  const locate = () => {
    setStatus("busy");
    try {
      const cached = JSON.parse(localStorage.getItem(CACHE_KEY) ?? "null") as {
        at: number;
        lat: number;
        lon: number;
        place: Place;
      } | null;
      if (cached && Date.now() - cached.at < GEOLOCATION_CACHE_S * 1000)
        return apply(cached.place, cached.lat, cached.lon);
    } catch {
      /* a broken cache entry is ignored */
    }
    navigator.geolocation.getCurrentPosition(
      async ({ coords }) => {
        const res = await apiFetch(`/api/geocode.php?lat=${coords.latitude}&lon=${coords.longitude}`).catch(() => null);
        if (!res) return setStatus("failed");
        if (!res.ok) return setStatus("failed");
        const place = (await res.json()) as Place;
        localStorage.setItem(
          CACHE_KEY,
          JSON.stringify({ at: Date.now(), lat: coords.latitude, lon: coords.longitude, place }),
        );
        apply(place, coords.latitude, coords.longitude);
      },
      () => setStatus("failed"),
      { maximumAge: GEOLOCATION_CACHE_S * 1000, timeout: 15_000 },
    );
  };
  // The list follows the chosen country (the page's list was for the saved one).
  const countryRegions = useRegions(v.country, { country: value.country, regions });
  const allRegions =
    extraRegion && !countryRegions.some((r) => r.code === extraRegion.code)
      ? [...countryRegions, extraRegion]
      : countryRegions;
  return (
    <fieldset id="location" className="location-picker">
      <legend>{t("form.location")}</legend>
      {supported ? (
        <p>
          <button type="button" className="btn btn-sm" onClick={locate} disabled={status === "busy"}>
            {t("form.useMyPosition")}
          </button>
          {status === "failed" ? <span className="hint"> {t("form.positionFailed")}</span> : null}
        </p>
      ) : null}
      <input type="hidden" name="lat" value={pos.lat} />
      <input type="hidden" name="lon" value={pos.lon} />
      <label className="field">
        <span>{t("fields.country")}</span>
        <select name="country" value={v.country} onChange={(e) => setV({ ...v, country: e.target.value, region: "" })}>
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t("fields.region")}</span>
        {allRegions.length ? (
          <select name="region" value={v.region} onChange={(e) => setV({ ...v, region: e.target.value })}>
            <option value="">{t("form.noChoice")}</option>
            {allRegions.map((r) => (
              <option key={r.code} value={r.code}>
                {r.name}
              </option>
            ))}
          </select>
        ) : (
          <input
            name="region"
            value={v.region}
            maxLength={20}
            onChange={(e) => setV({ ...v, region: e.target.value })}
          />
        )}
      </label>
      <label className="field">
        <span>{t("fields.city")}</span>
        <input name="city" value={v.city} maxLength={80} onChange={(e) => setV({ ...v, city: e.target.value })} />
      </label>
    </fieldset>
  );
}
