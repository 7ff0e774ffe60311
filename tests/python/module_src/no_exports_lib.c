/* SPDX-License-Identifier: Apache-2.0 */
/* no_exports_lib.c: a valid shared library without any __tvm_ffi_ symbol. */
int plain_function(int x) { return x + 1; }
