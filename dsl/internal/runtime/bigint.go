package runtime

import "math/big"

// bigInt wraps big.Int so maps of weights can hold pointers that are created on demand.
type bigInt struct{ *big.Int }

func newBig() *bigInt { return &bigInt{new(big.Int)} }
