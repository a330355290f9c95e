import { useEffect, useState } from "react";
import { apiFetch } from "~/lib/api-client";

export type RegionOption = { code: string; name: string };

/**
 * The regions of the chosen country: the server's list for the country the page was rendered
 * with, the others from /api/regions.php (all the brand's countries in one cached answer) once the
 * visitor picks another country. Without JavaScript the page's form is submitted and the server
 * renders the new country's list.
 */
export function useRegions(country: string, initial: { country: string; regions: RegionOption[] }): RegionOption[] {
  const [byCountry, setByCountry] = useState<Record<string, RegionOption[]>>({ [initial.country]: initial.regions });
  const known = country in byCountry;
  useEffect(() => {
    if (known) return;
    let live = true;
    apiFetch(`/api/regions.php?lng=${document.documentElement.lang}`)
      .then((r) => (r.ok ? (r.json() as Promise<{ regions: Record<string, RegionOption[]> }>) : null))
      .then((d) => {
        if (live && d) setByCountry((prev) => ({ ...d.regions, ...prev, [country]: d.regions[country] ?? [] }));
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [country, known]);
  return byCountry[country] ?? [];
}
