/** /likes/m/{id}: the same screen as /members/{id}, reached from the likes list. */
export { action, default, handle, links, loader } from "./members.$id._index";
