/* Walks image folders as torchvision's ImageFolder does (make_dataset: for each class in sorted
   order, sorted(os.walk(class_folder, followlinks=True)), each folder's files sorted), refusing
   the cycles that links can make, which os.walk would follow forever. */
#include "image_walk.h"

#include "common/base/error.h"
#include "folder.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* A folder of a tree with its entries, listed once. */
struct visited_folder {
    char *path;
    struct folder_listing listing;
};

struct tree {
    struct visited_folder *folders;
    size_t count;
    dev_t devices[IMAGE_WALK_MAX_DEPTH + 1]; /* the folders from the top to the one being read */
    ino_t inodes[IMAGE_WALK_MAX_DEPTH + 1];
};

static bool is_image_name(const char *name)
{
    static const char *const extensions[] = {".jpg", ".jpeg", ".png", ".ppm", ".bmp",
                                             ".pgm", ".tif", ".tiff", ".webp"};
    size_t length = strlen(name);
    for (size_t index = 0; index < sizeof extensions / sizeof extensions[0]; index++) {
        size_t ending = strlen(extensions[index]);
        if (length >= ending && strcasecmp(name + length - ending, extensions[index]) == 0)
            return true;
    }
    return false;
}

static int image_add(struct image_walk *walk, const char *folder, const char *name,
                     uint32_t class)
{
    if (walk->count == IMAGE_WALK_MAX_IMAGES)
        return error_set(EXIT_CORRUPT_INPUT, "too many images: %s: more than %u", folder,
                         IMAGE_WALK_MAX_IMAGES);
    if ((walk->count & (walk->count - 1)) == 0) {
        size_t capacity = walk->count == 0 ? 16 : walk->count * 2;
        char **paths = realloc(walk->paths, capacity * sizeof *paths);
        if (paths != NULL)
            walk->paths = paths;
        uint32_t *classes = realloc(walk->classes, capacity * sizeof *classes);
        if (classes != NULL)
            walk->classes = classes;
        if (paths == NULL || classes == NULL)
            return error_set(EXIT_OTHER, "out of memory");
    }
    walk->paths[walk->count] = folder_join(folder, name);
    if (walk->paths[walk->count] == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    walk->classes[walk->count++] = class;
    return EXIT_OK;
}

/* Lists PATH and, below it, every folder: into TREE, DEPTH levels under the top. */
static int tree_collect(struct tree *tree, const char *path, int depth)
{
    if (depth > IMAGE_WALK_MAX_DEPTH)
        return error_set(EXIT_CORRUPT_INPUT, "folders too deep: %s: more than %d levels", path,
                         IMAGE_WALK_MAX_DEPTH);
    if ((tree->count & (tree->count - 1)) == 0) {
        size_t capacity = tree->count == 0 ? 4 : tree->count * 2;
        struct visited_folder *grown = realloc(tree->folders, capacity * sizeof *grown);
        if (grown == NULL)
            return error_set(EXIT_OTHER, "out of memory");
        tree->folders = grown;
    }
    struct visited_folder *folder = &tree->folders[tree->count];
    *folder = (struct visited_folder){.path = strdup(path)};
    if (folder->path == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    tree->count++;
    int result = folder_list(path, &folder->listing);
    struct folder_listing listing = folder->listing; /* tree->folders moves as it grows */
    for (size_t index = 0; index < listing.count && result == EXIT_OK; index++) {
        const struct folder_entry *entry = &listing.entries[index];
        if (!entry->folder)
            continue;
        for (int above = 0; above <= depth; above++)
            if (tree->devices[above] == entry->device && tree->inodes[above] == entry->inode)
                return error_set(EXIT_CORRUPT_INPUT, "folder cycle: %s/%s leads back to a "
                                 "folder above it", path, entry->name);
        char *below = folder_join(path, entry->name);
        if (below == NULL)
            return error_set(EXIT_OTHER, "out of memory");
        tree->devices[depth + 1] = entry->device;
        tree->inodes[depth + 1] = entry->inode;
        result = tree_collect(tree, below, depth + 1);
        free(below);
    }
    return result;
}

static int compare_folders(const void *left, const void *right)
{
    const struct visited_folder *first = left, *second = right;
    return strcmp(first->path, second->path);
}

static void tree_free(struct tree *tree)
{
    for (size_t index = 0; index < tree->count; index++) {
        free(tree->folders[index].path);
        folder_listing_free(&tree->folders[index].listing);
    }
    free(tree->folders);
}

/* The images under TOP, all of class CLASS, in sorted(os.walk(TOP)) order. */
static int tree_walk(struct image_walk *walk, const char *top, uint32_t class)
{
    struct tree tree = {0};
    struct stat status;
    int result = stat(top, &status) == 0 ? EXIT_OK
                                          : error_set(EXIT_MISSING_INPUT, "not found: %s", top);
    tree.devices[0] = status.st_dev;
    tree.inodes[0] = status.st_ino;
    if (result == EXIT_OK)
        result = tree_collect(&tree, top, 0);
    if (result == EXIT_OK)
        qsort(tree.folders, tree.count, sizeof *tree.folders, compare_folders);
    for (size_t folder = 0; folder < tree.count && result == EXIT_OK; folder++) {
        const struct folder_listing *listing = &tree.folders[folder].listing;
        for (size_t index = 0; index < listing->count && result == EXIT_OK; index++)
            if (!listing->entries[index].folder && is_image_name(listing->entries[index].name))
                result = image_add(walk, tree.folders[folder].path, listing->entries[index].name,
                                   class);
    }
    tree_free(&tree);
    return result;
}

static int class_add(struct image_walk *walk, const char *root, const char *name)
{
    char **grown = realloc(walk->class_names, (walk->class_count + 1) * sizeof *grown);
    if (grown == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    walk->class_names = grown;
    if ((grown[walk->class_count] = strdup(name)) == NULL)
        return error_set(EXIT_OTHER, "out of memory");
    size_t before = walk->count;
    char *folder = folder_join(root, name);
    int result = folder == NULL ? error_set(EXIT_OTHER, "out of memory")
                                : tree_walk(walk, folder, (uint32_t)walk->class_count);
    walk->class_count++;
    if (result == EXIT_OK && walk->count == before)
        result = error_set(EXIT_CORRUPT_INPUT, "class folder without images: %s (ImageFolder "
                           "refuses it too)", folder);
    free(folder);
    return result;
}

int image_walk(const char *root, bool classes, struct image_walk *walk)
{
    *walk = (struct image_walk){0};
    struct folder_listing listing;
    int result = folder_list(root, &listing);
    for (size_t index = 0; index < listing.count && result == EXIT_OK && !classes; index++)
        if (!listing.entries[index].folder && is_image_name(listing.entries[index].name))
            result = image_add(walk, root, listing.entries[index].name, 0);
    for (size_t index = 0; index < listing.count && result == EXIT_OK; index++) {
        const char *name = listing.entries[index].name;
        if (!listing.entries[index].folder)
            continue;
        if (classes) {
            result = class_add(walk, root, name);
            continue;
        }
        char *folder = folder_join(root, name);
        result = folder == NULL ? error_set(EXIT_OTHER, "out of memory")
                                : tree_walk(walk, folder, 0);
        free(folder);
    }
    folder_listing_free(&listing);
    if (result == EXIT_OK && classes && walk->class_count == 0)
        result = error_set(EXIT_CORRUPT_INPUT, "no class folders: %s holds no folder",
                           root);
    if (result != EXIT_OK)
        image_walk_free(walk);
    return result;
}

void image_walk_free(struct image_walk *walk)
{
    for (size_t index = 0; index < walk->count; index++)
        free(walk->paths[index]);
    free(walk->paths);
    free(walk->classes);
    for (size_t index = 0; index < walk->class_count; index++)
        free(walk->class_names[index]);
    free(walk->class_names);
    *walk = (struct image_walk){0};
}
