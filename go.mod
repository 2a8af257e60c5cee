module github.com/gmdjudge/gmd

go 1.26.8
