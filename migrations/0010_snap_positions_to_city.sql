-- Custom SQL migration file, put your code below! ---- Issue 12 item 1, decision 084: no member's position is stored finer than their city.
-- A profile whose city is known gets that city's coordinates (the most populous of that name)...
UPDATE profiles SET
  lat = (SELECT c.lat FROM cities c WHERE c.country = profiles.country AND c.name = profiles.city COLLATE NOCASE ORDER BY c.population DESC LIMIT 1),
  lon = (SELECT c.lon FROM cities c WHERE c.country = profiles.country AND c.name = profiles.city COLLATE NOCASE ORDER BY c.population DESC LIMIT 1)
WHERE lat IS NOT NULL AND lon IS NOT NULL AND city != ''
  AND EXISTS (SELECT 1 FROM cities c WHERE c.country = profiles.country AND c.name = profiles.city COLLATE NOCASE);
--> statement-breakpoint
-- ...every other stored position is rounded to the 0.1 degree grid (about 11 km).
UPDATE profiles SET lat = round(lat * 10) / 10.0, lon = round(lon * 10) / 10.0
WHERE lat IS NOT NULL AND lon IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM cities c WHERE c.country = profiles.country AND c.name = profiles.city COLLATE NOCASE AND c.lat = profiles.lat AND c.lon = profiles.lon);
