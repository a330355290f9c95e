/**
 * The console's only scripts (decision 210), inline with the page's nonce and a few hundred bytes each:
 * the inbox list follows its live stream and swaps itself in when waits or claims change; the reply
 * box tells the member "typing" while the team member writes. Without JavaScript the list reloads
 * itself (meta refresh, a refresh link) and nothing else changes.
 */
import { useNonce } from "~/lib/nonce";
import { TYPING_REPEAT_MS } from "~/chat/protocol";

/** Replaces #inbox-live with the same element of a fresh copy of the page when the stream's version changes. */
const LIST = `(function(){if(!window.EventSource)return;var v=null,es=new EventSource("/admin/inbox/live");es.addEventListener("inbox",function(e){if(v===null||e.data===v){v=e.data;return}v=e.data;fetch(location.href,{credentials:"same-origin"}).then(function(r){return r.ok?r.text():null}).then(function(h){if(!h)return;var n=new DOMParser().parseFromString(h,"text/html").getElementById("inbox-live"),o=document.getElementById("inbox-live");if(n&&o)o.replaceWith(n)}).catch(function(){})})})()`;

/** Posts ".../typing" at most every TYPING_REPEAT_MS while the reply box changes. */
const TYPING = `(function(){var t=0,b=document.querySelector("textarea[name=body]");if(!b)return;b.addEventListener("input",function(){var n=Date.now();if(n-t<${TYPING_REPEAT_MS})return;t=n;fetch(location.pathname.replace(/\\/$/,"")+"/typing",{method:"POST",credentials:"same-origin"}).catch(function(){})})})()`;

export function LiveScript({ part }: { part: "list" | "typing" }) {
  const nonce = useNonce();
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: part === "list" ? LIST : TYPING }} />;
}
