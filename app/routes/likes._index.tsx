/** /likes: the received likes (new first). */
export { default, handle, links, loader } from "./likes.$type";
