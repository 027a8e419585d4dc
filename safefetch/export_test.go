package safefetch

// MaxBufferedForTest is what a failed read may be charged beyond what it
// read: what the transport had buffered for the body.
const MaxBufferedForTest = maxBuffered
