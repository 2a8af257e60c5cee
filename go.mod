module github.com/gmdjudge/gmd

go 1.26.8

require (
	github.com/emersion/go-message v0.18.2 // indirect
	go.etcd.io/bbolt v1.5.0 // indirect
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
