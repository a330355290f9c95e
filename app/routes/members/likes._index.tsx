/** /likes: the received likes (new first). */
export { action, default, handle, links, loader } from "./likes.$type";
