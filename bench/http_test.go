package bench

import (
	"io"
	"net"
	"net/http"
	"testing"
)

// BenchmarkHTTP is an end-to-end, server-like mix: client goroutines make
// keep-alive HTTP/1.1 requests to a server in the same process, over the
// loopback interface only. Each round trip uses the network poller,
// deadline timers, channels inside net/http and a good deal of scheduling,
// so many runtime locks are exercised together. One op is one request and
// its response read in full.
func BenchmarkHTTP(b *testing.B) {
	const clients = 16
	body := make([]byte, 512)
	for i := range body {
		body[i] = byte('a' + i%26)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatalf("listening on loopback: %v", err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(body)
	})}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	tr := &http.Transport{MaxIdleConnsPerHost: clients, DisableCompression: true}
	client := &http.Client{Transport: tr}
	url := "http://" + ln.Addr().String() + "/"
	// Open the connections before timing, so the loop measures round trips
	// rather than TCP handshakes.
	spread(clients, clients, func(w, ops int) {
		get(b, client, url, len(body))
	})

	m := startMeter(b)
	spread(clients, b.N, func(w, ops int) {
		for i := 0; i < ops; i++ {
			if !get(b, client, url, len(body)) {
				return
			}
		}
	})
	m.stop()

	tr.CloseIdleConnections()
	if err := srv.Close(); err != nil {
		b.Errorf("closing the server: %v", err)
	}
	if err := <-served; err != http.ErrServerClosed {
		b.Errorf("server stopped with %v, want %v", err, http.ErrServerClosed)
	}
}

// get makes one request and reads the whole response. It reports a failure
// through b and returns false, for callers on other goroutines to stop.
func get(b *testing.B, c *http.Client, url string, want int) bool {
	resp, err := c.Get(url)
	if err != nil {
		b.Errorf("GET %s: %v", url, err)
		return false
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || n != int64(want) || resp.StatusCode != http.StatusOK {
		b.Errorf("GET %s: status %d, read %d bytes (want %d), error %v", url, resp.StatusCode, n, want, err)
		return false
	}
	return true
}
