package mwzookeeper

import (
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fill sets every field of the struct v points to, slices to one element
// each (recursively), so that a field Clone forgets shows up.
func fill(v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.CanSet() {
			set(f)
		}
	}
}

func set(f reflect.Value) {
	switch f.Kind() {
	case reflect.Slice:
		s := reflect.MakeSlice(f.Type(), 1, 1)
		set(s.Index(0))
		f.Set(s)
	case reflect.String:
		f.SetString("p")
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Int:
		f.SetInt(7)
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f.SetUint(7)
	case reflect.Bool:
		f.SetBool(true)
	case reflect.Struct:
		fill(f)
	}
}

// shared names the slice fields of a and b (structs) that share memory.
func shared(a, b reflect.Value, path string) []string {
	var out []string
	for i := 0; i < a.NumField(); i++ {
		fa, fb := a.Field(i), b.Field(i)
		name := path + a.Type().Field(i).Name
		switch fa.Kind() {
		case reflect.Slice:
			if fa.Len() > 0 && fa.Pointer() == fb.Pointer() {
				out = append(out, name)
			}
			for k := 0; k < min(fa.Len(), fb.Len()); k++ {
				if fa.Index(k).Kind() == reflect.Struct {
					out = append(out, shared(fa.Index(k), fb.Index(k), name+"[].")...)
				}
			}
		case reflect.Struct:
			out = append(out, shared(fa, fb, name+".")...)
		}
	}
	return out
}

func TestCloneSharesNothing(t *testing.T) {
	var req Request
	var resp Response
	fill(reflect.ValueOf(&req).Elem())
	fill(reflect.ValueOf(&resp).Elem())
	opt := cmpopts.EquateErrors()
	rc, pc := req.Clone(), resp.Clone()
	if d := cmp.Diff(&req, rc, opt); d != "" {
		t.Errorf("Request.Clone differs from the original (-want +got):\n%s", d)
	}
	if d := cmp.Diff(&resp, pc, opt); d != "" {
		t.Errorf("Response.Clone differs from the original (-want +got):\n%s", d)
	}
	if s := shared(reflect.ValueOf(req), reflect.ValueOf(*rc), "Request."); len(s) > 0 {
		t.Errorf("Request.Clone shares memory in %v", s)
	}
	if s := shared(reflect.ValueOf(resp), reflect.ValueOf(*pc), "Response."); len(s) > 0 {
		t.Errorf("Response.Clone shares memory in %v", s)
	}
}
