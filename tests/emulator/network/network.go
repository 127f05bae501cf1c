package network

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Suffix is the domain the network answers, beside the hosts Start is given; CONNECT to any other host is refused
// (there is no internet).
const Suffix = ".amazonaws.com"

// Network is a running offline network.
type Network struct {
	// CAFile is the PEM of the CA that signs the host certificates.
	CAFile string
	// ProxyURL is the proxy's address, http://127.0.0.1:<port>: the address an earlier network in the same
	// directory had, if it is free (processes that outlive a run, the clusters' authenticators, keep reaching it).
	ProxyURL string
	// Moved says the proxy could not take the address an earlier network in the same directory had: processes
	// started with that address no longer reach the network.
	Moved bool

	ca      *x509.Certificate
	caKey   *ecdsa.PrivateKey
	mu      sync.Mutex
	certs   map[string]*tls.Certificate
	proxy   *http.Server
	proxyLn net.Listener
	backend *http.Server
	tlsAddr string
	hosts   map[string]bool
}

// Start starts the proxy and the TLS server on loopback ports and writes the CA to dir/ca.pem. The TLS server
// hands every request to serve; a nil serve answers 200 "ok" to all (Answer). The network routes the AWS domain
// (Suffix) and hosts (chart repositories).
func Start(dir string, serve http.Handler, hosts ...string) (*Network, error) {
	if serve == nil {
		serve = Answer
	}
	n := &Network{CAFile: filepath.Join(dir, "ca.pem"), certs: map[string]*tls.Certificate{}, hosts: map[string]bool{}}
	for _, h := range hosts {
		n.hosts[h] = true
	}
	if err := n.makeCA(); err != nil {
		return nil, err
	}
	// HTTP/2 where the client offers it, as AWS's endpoints (an EKS API server among them) serve it: a Kubernetes
	// client multiplexes its watches over one connection to a cluster, where HTTP/1.1 holds a tunnel and a connection
	// per watch (Argo CD's controllers watch every kind of every cluster they manage: thousands at 100 clusters).
	// http.Server.Serve speaks HTTP/2 on a TLS connection that negotiated it (its TLSConfig is nil).
	tlsLn, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{GetCertificate: n.certificate, MinVersion: tls.VersionTLS12,
		NextProtos: []string{"h2", "http/1.1"}})
	if err != nil {
		return nil, err
	}
	n.tlsAddr = tlsLn.Addr().String()
	n.backend = &http.Server{Handler: serve, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = n.backend.Serve(tlsLn) }()

	proxyLn, moved, err := listenAgain(filepath.Join(dir, "proxy-address"))
	if err != nil {
		return nil, err
	}
	n.ProxyURL, n.Moved = "http://"+proxyLn.Addr().String(), moved
	n.proxy = &http.Server{Handler: http.HandlerFunc(n.connect), ReadHeaderTimeout: 10 * time.Second}
	n.proxyLn = proxyLn
	go func() { _ = n.proxy.Serve(proxyLn) }()
	return n, nil
}

// reclaimTries and reclaimWait bound how long listenAgain waits for a recorded address to be free: a port of the
// ephemeral range can be held for a moment by another process's outgoing connection.
const (
	reclaimTries = 20
	reclaimWait  = 50 * time.Millisecond
)

// listenAgain listens on the loopback address recorded in file, if there is one and it is free (within
// reclaimTries × reclaimWait), else on a new one that it records; moved is whether a recorded address was lost.
func listenAgain(file string) (ln net.Listener, moved bool, err error) {
	if prev, err := os.ReadFile(file); err == nil {
		for try := range reclaimTries {
			if ln, err := net.Listen("tcp", strings.TrimSpace(string(prev))); err == nil {
				return ln, false, nil
			}
			if try < reclaimTries-1 {
				time.Sleep(reclaimWait)
			}
		}
		moved = true
	}
	if ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return nil, false, err
	}
	if err := os.WriteFile(file, []byte(ln.Addr().String()+"\n"), 0o644); err != nil {
		ln.Close()
		return nil, false, err
	}
	return ln, moved, nil
}

// Env are the variables that route the plugins' HTTPS through the network and make them trust its CA.
func (n *Network) Env() map[string]string {
	noProxy := "localhost,127.0.0.1,::1"
	return map[string]string{
		"HTTPS_PROXY": n.ProxyURL, "https_proxy": n.ProxyURL,
		"NO_PROXY": noProxy, "no_proxy": noProxy, "no_grpc_proxy": noProxy,
		"NODE_EXTRA_CA_CERTS": n.CAFile,
	}
}

// Transport reaches the network as a program on this machine does: through the proxy, trusting the network's CA
// (TLS 1.2 at least). HTTP/1.1 unless the caller sets ForceAttemptHTTP2.
func (n *Network) Transport() *http.Transport {
	proxy, _ := url.Parse(n.ProxyURL) // "http://" + a listener's address
	roots := x509.NewCertPool()
	roots.AddCert(n.ca)
	return &http.Transport{Proxy: http.ProxyURL(proxy), TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}}
}

// Close stops both servers.
func (n *Network) Close() error {
	err := errors.Join(n.proxy.Close(), n.backend.Close())
	// The proxy's address is free once Close returns, even if its Serve had not started yet (a network started
	// again in the directory takes it).
	_ = n.proxyLn.Close()
	return err
}

// Answer is the reply of an endpoint nothing else serves: the API server is healthy, the OIDC issuer is there.
var Answer http.Handler = http.HandlerFunc(answer)

func answer(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	_, _ = io.WriteString(w, "ok")
}

// connect tunnels CONNECT requests for AWS hosts and the network's other hosts to the TLS server.
func (n *Network) connect(w http.ResponseWriter, r *http.Request) {
	host, _, err := net.SplitHostPort(r.Host)
	if r.Method != http.MethodConnect || err != nil || !(strings.HasSuffix(host, Suffix) || n.hosts[host]) {
		http.Error(w, fmt.Sprintf("offline network: no route to %s", r.Host), http.StatusBadGateway)
		return
	}
	upstream, err := net.Dial("tcp", n.tlsAddr)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		upstream.Close()
		http.Error(w, "hijacking unsupported", http.StatusInternalServerError)
		return
	}
	client, buf, err := hj.Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	_, _ = client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
	go func() {
		defer upstream.Close()
		defer client.Close()
		if buf.Reader.Buffered() > 0 {
			_, _ = io.CopyN(upstream, buf, int64(buf.Reader.Buffered()))
		}
		go func() { _, _ = io.Copy(client, upstream); client.Close() }()
		_, _ = io.Copy(upstream, client)
	}()
}

// makeCA loads the CA of an earlier network in the same directory, else makes one: the clusters of a persistent
// offline cloud (a second `make demo`) report the certificate authority of the run that created them, and their
// kubeconfigs trust only that one.
func (n *Network) makeCA() error {
	keyFile := strings.TrimSuffix(n.CAFile, ".pem") + "-key.pem"
	if certPEM, err := os.ReadFile(n.CAFile); err == nil {
		if keyPEM, err := os.ReadFile(keyFile); err == nil {
			return n.loadCA(certPEM, keyPEM)
		}
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "pulumi-fleet offline network CA"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(10 * 365 * 24 * time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		return err
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	if err := os.WriteFile(n.CAFile, certPEM, 0o600); err != nil {
		return err
	}
	return n.loadCA(certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
}

func (n *Network) loadCA(certPEM, keyPEM []byte) error {
	certBlock, _ := pem.Decode(certPEM)
	keyBlock, _ := pem.Decode(keyPEM)
	if certBlock == nil || keyBlock == nil {
		return fmt.Errorf("offline network: %s or its key is not PEM", n.CAFile)
	}
	ca, err := x509.ParseCertificate(certBlock.Bytes)
	if err != nil {
		return err
	}
	key, err := x509.ParseECPrivateKey(keyBlock.Bytes)
	if err != nil {
		return err
	}
	n.ca, n.caKey = ca, key
	return nil
}

// certificate mints (once per name) a certificate for the host the client asked for.
func (n *Network) certificate(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
	name := hello.ServerName
	if name == "" {
		name = "localhost"
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if c, ok := n.certs[name]; ok {
		return c, nil
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	serial, err := rand.Int(rand.Reader, big.NewInt(1<<62))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: name},
		DNSNames:     []string{name},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, n.ca, &key.PublicKey, n.caKey)
	if err != nil {
		return nil, err
	}
	c := &tls.Certificate{Certificate: [][]byte{der, n.ca.Raw}, PrivateKey: key}
	n.certs[name] = c
	return c, nil
}
