/** Any URL no route serves: a 404 inside the site's chrome (the root loader still runs). */
export function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFound() {
  return null;
}
