package emulator

import (
	"net"
	"net/http"
)

// Host is the host a request is for, without its port: the AWS endpoint name the offline network routes by.
func Host(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.Host); err == nil {
		return h
	}
	return r.Host
}
