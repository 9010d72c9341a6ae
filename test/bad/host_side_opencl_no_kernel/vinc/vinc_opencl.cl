__kernel void vinc_kernel(__global int *v, int n)
{
    int i = get_global_id(0);
    if (i < n) v[i] += 1;
}
