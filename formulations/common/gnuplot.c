/* gnuplot.c — the shared opening of slotopt's gnuplot scripts (gnuplot.h). */
#include <string.h>
#include <strings.h>
#include "formulations/common/gnuplot.h"

const char *so_gp_terminal(const char *path)
{
    const char *ext = path ? strrchr(path, '.') : NULL;
    if (!ext || strchr(ext, '/'))
        return NULL;
    if (!strcasecmp(ext, ".png"))
        return "pngcairo";
    if (!strcasecmp(ext, ".svg"))
        return "svg";
    if (!strcasecmp(ext, ".pdf"))
        return "pdfcairo";
    return NULL;
}

int so_gp_check_path(const char *path, so_error *err)
{
    if (!so_gp_terminal(path))
        return so_error_setf(err, path, 0, 0, NULL,
                             "a plot file name must end in .png, .svg or .pdf "
                             "(the extension picks the file type)");
    if (strchr(path, '\'') || strchr(path, '\n'))
        return so_error_setf(err, path, 0, 0, NULL,
                             "a plot path may not contain quotes or newlines");
    return SO_OK;
}

void so_gp_put_quoted(FILE *fp, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '\'')
            fputs("''", fp);
        else
            fputc((unsigned char)*s < ' ' ? ' ' : *s, fp);
    }
}

void so_gp_header(FILE *fp, const char *ext_path, const char *output, int width,
                  int height, const char *title)
{
    const char *term = so_gp_terminal(ext_path);
    if (!term)
        term = "svg";
    if (!strcmp(term, "pdfcairo"))
        fprintf(fp, "set terminal pdfcairo size %.2fin,%.2fin noenhanced font ',9'\n",
                width / 100.0, height / 100.0);
    else if (!strcmp(term, "pngcairo"))
        fprintf(fp, "set terminal pngcairo size %d,%d noenhanced font ',10'\n", width,
                height);
    else
        fprintf(fp, "set terminal svg size %d,%d dynamic noenhanced\n", width, height);
    fputs("set termoption noenhanced\nset output '", fp);
    so_gp_put_quoted(fp, output);
    fputs("'\nset title '", fp);
    so_gp_put_quoted(fp, title);
    fputs("'\n", fp);
}
