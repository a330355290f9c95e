import { createContext, useContext } from "react";

/** The CSP nonce of this response; only set during the server render. */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
